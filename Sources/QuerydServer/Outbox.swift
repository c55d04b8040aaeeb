// A connection's pending output: reply and request lines in order, and `query.changed` (and
// `mutation.changed`) pushes that coalesce: a subscription with a push not yet written keeps one
// place in the queue and is written with its newest state (a subscriber needs the latest state,
// not every intermediate one). A query push holds its `QueryView`, whose encoded state object is
// shared by every subscription pushed the same view, so writing a push copies those bytes.

import QuerydCore
import QuerydJSON
import QuerydRPC

/// Ordered output of one session, flushed once per event-loop iteration.
struct Outbox {
    /// A queued line, a pending push, or the place of a push that was dropped (by `query.setOptions`
    /// or `query.unsubscribe`; a later push of that subscription takes a new place at the end).
    private enum Entry {
        case bytes([UInt8])
        /// A query push, holding the newest view for its subscription.
        case push(SubscriptionID, QueryView)
        case droppedPush
        case mutationPush(MutationPushKey)
    }

    private typealias Place = PushPlaces.Place

    /// One mutation as seen by one mutation subscription: its pushes coalesce.
    struct MutationPushKey: Hashable {
        let subscription: SubscriptionID
        let mutation: MutationID
    }

    private var entries: [Entry] = []
    /// Pushes queued while a batch is being handled, appended when it is done.
    private var heldPushes: [Entry]?
    /// The place of every pending query push (each `.push` entry is listed here).
    private var pushPlaces = PushPlaces()
    private var latestMutationPush: [MutationPushKey: MutationState] = [:]
    /// Bytes of lines queued (pushes not counted until written).
    private(set) var queuedBytes = 0

    var isEmpty: Bool { entries.isEmpty && (heldPushes?.isEmpty ?? true) }

    /// Appends one line written by `write`, plus its newline.
    mutating func appendLine(_ write: (inout [UInt8]) -> Void) {
        if case .bytes(var last) = entries.last {
            entries.removeLast()
            let before = last.count
            write(&last)
            last.append(UInt8(ascii: "\n"))
            queuedBytes += last.count - before
            entries.append(.bytes(last))
        } else {
            var bytes: [UInt8] = []
            write(&bytes)
            bytes.append(UInt8(ascii: "\n"))
            queuedBytes += bytes.count
            entries.append(.bytes(bytes))
        }
    }

    /// Queues a push of `view` to `subscription`, replacing an unwritten older one in its place.
    mutating func appendPush(_ view: QueryView, to subscription: SubscriptionID) {
        let held = heldPushes != nil
        let fresh = Place(held: held, index: held ? heldPushes!.count : entries.count)
        // One lookup: records `fresh` when the subscription has no pending push, else reads its place.
        let entry = Entry.push(subscription, view)
        if let place = pushPlaces.place(of: subscription.rawValue, recordingIfNone: fresh) {
            put(entry, at: place)
        } else if held {
            heldPushes!.append(entry)
        } else {
            entries.append(entry)
        }
    }

    /// Queues a `mutation.changed` push of `state` to `subscription`, replacing an unwritten
    /// older push of the same mutation to that subscription.
    mutating func appendMutationPush(_ state: MutationState, to subscription: SubscriptionID) {
        let key = MutationPushKey(subscription: subscription, mutation: state.id)
        guard latestMutationPush.updateValue(state, forKey: key) == nil else { return }
        if heldPushes != nil {
            heldPushes!.append(.mutationPush(key))
        } else {
            entries.append(.mutationPush(key))
        }
    }

    /// Queues new pushes aside until `releasePushes()`.
    mutating func holdPushes() {
        heldPushes = []
    }

    /// Appends the pushes held since `holdPushes()` after everything queued meanwhile.
    mutating func releasePushes() {
        guard let held = heldPushes else { return }
        heldPushes = nil
        let base = entries.count
        for (offset, entry) in held.enumerated() {
            if case .push(let subscription, _) = entry {
                pushPlaces.set(Place(held: false, index: base + offset), for: subscription.rawValue)
            }
        }
        entries.append(contentsOf: held)
    }

    /// Forgets unwritten pushes of a subscription that ended.
    mutating func dropPushes(of subscription: SubscriptionID) {
        guard let place = pushPlaces.remove(subscription.rawValue) else { return }
        put(.droppedPush, at: place)
    }

    /// Forgets unwritten `mutation.changed` pushes of a mutation subscription that ended.
    mutating func dropMutationPushes(of subscription: SubscriptionID) {
        latestMutationPush = latestMutationPush.filter { $0.key.subscription != subscription }
    }

    /// Everything queued, encoded in order, leaving the outbox empty.
    mutating func take() -> [UInt8] {
        var out: [UInt8] = []
        return take(orEncodeInto: &out) ?? out
    }

    /// Leaves the outbox empty: returns the one queued line as it is, or else encodes everything
    /// queued, in order, into `out` (emptied first; a buffer reused between flushes keeps its
    /// capacity) and returns nil.
    mutating func take(orEncodeInto out: inout [UInt8]) -> [UInt8]? {
        if entries.count == 1, case .bytes(let only) = entries[0] {
            entries = []
            queuedBytes = 0
            return only
        }
        var size = queuedBytes
        for entry in entries {
            if case .push(_, let view) = entry { size += Outbox.pushFraming + view.encodedState.count }
        }
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(size)
        for entry in entries {
            switch entry {
            case .bytes(let bytes):
                out.append(contentsOf: bytes)
            case .push(let subscription, let view):
                Outbox.writePush(view, subscription: subscription, to: &out)
            case .droppedPush:
                continue
            case .mutationPush(let key):
                guard let state = latestMutationPush.removeValue(forKey: key) else { continue }
                let params: JSONValue = [
                    "subscription": .number(JSONNumber(key.subscription.rawValue)), "mutation": state.jsonValue,
                ]
                RPCWriter.notification(method: "mutation.changed", params: params, to: &out)
                out.append(UInt8(ascii: "\n"))
            }
        }
        // Capacity is kept for the next flush (pushes come in waves), unless a burst made it large.
        entries.removeAll(keepingCapacity: entries.count <= 256)
        forgetWrittenPlaces()
        latestMutationPush = [:]
        queuedBytes = 0
        return nil
    }

    /// Keeps only the places of held pushes (the others were just written).
    private mutating func forgetWrittenPlaces() {
        pushPlaces.removeAll()
        guard let held = heldPushes else { return }
        for (index, entry) in held.enumerated() {
            if case .push(let subscription, _) = entry {
                pushPlaces.set(Place(held: true, index: index), for: subscription.rawValue)
            }
        }
    }

    private mutating func put(_ entry: Entry, at place: Place) {
        if place.held {
            heldPushes![place.index] = entry
        } else {
            entries[place.index] = entry
        }
    }

    /// The bytes of a `query.changed` line around its state object (the subscription id counted at 20 digits).
    private static let pushFraming = pushHead.utf8CodeUnitCount + pushMember.utf8CodeUnitCount + 20 + 3
    private static let pushHead: StaticString = #"{"jsonrpc":"2.0","method":"query.changed","params":{"state":"#
    private static let pushMember: StaticString = #","subscription":"#

    /// Writes one `query.changed` notification line: the view's shared framed state, then the
    /// subscription id and the closing `}}` and newline.
    static func writePush(_ view: QueryView, subscription: SubscriptionID, to out: inout [UInt8]) {
        out.append(contentsOf: view.encodedState(after: pushHead, before: pushMember))
        writeIDAndTail(subscription.rawValue, to: &out)
    }

    /// Appends `id` in decimal (as `String(id)` spells it), then `}}` and a newline, in one append.
    private static func writeIDAndTail(_ id: Int, to out: inout [UInt8]) {
        guard id >= 0 else {
            out.append(contentsOf: (String(id) + "}}\n").utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var end = buffer.count
            for byte in [UInt8(ascii: "\n"), UInt8(ascii: "}"), UInt8(ascii: "}")] {
                end -= 1
                buffer[end] = byte
            }
            var rest = id
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[end...]))
        }
    }
}
