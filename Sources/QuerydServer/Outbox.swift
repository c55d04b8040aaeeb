// A connection's pending output: reply and request lines in order, and `query.changed` (and
// `mutation.changed`) pushes that coalesce: a subscription with a push not yet written keeps one
// place in the queue and is written with its newest state (a subscriber needs the latest state,
// not every intermediate one).

import QuerydCore
import QuerydJSON
import QuerydRPC

/// Ordered output of one session, flushed once per event-loop iteration.
struct Outbox {
    /// A queued line, or the place of a pending push. A query push's `slot` tells the place that
    /// still holds it from one whose push was dropped (by `query.setOptions`) and queued again later.
    private enum Entry {
        case bytes([UInt8])
        case push(SubscriptionID, slot: Int)
        case mutationPush(MutationPushKey)
    }

    /// One mutation as seen by one mutation subscription: its pushes coalesce.
    struct MutationPushKey: Hashable {
        let subscription: SubscriptionID
        let mutation: MutationID
    }

    private var entries: [Entry] = []
    /// Pushes queued while a batch is being handled, appended when it is done.
    private var heldPushes: [Entry]?
    private var latestPush: [SubscriptionID: (result: QueryResult, slot: Int)] = [:]
    private var lastSlot = 0
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

    /// Queues a push of `result` to `subscription`, replacing an unwritten older one.
    mutating func appendPush(_ result: QueryResult, to subscription: SubscriptionID) {
        if let pending = latestPush[subscription] {
            latestPush[subscription] = (result, pending.slot)
            return
        }
        lastSlot += 1
        latestPush[subscription] = (result, lastSlot)
        let entry = Entry.push(subscription, slot: lastSlot)
        if heldPushes != nil {
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
        entries.append(contentsOf: held)
    }

    /// Forgets unwritten pushes of a subscription that ended.
    mutating func dropPushes(of subscription: SubscriptionID) {
        latestPush[subscription] = nil
    }

    /// Forgets unwritten `mutation.changed` pushes of a mutation subscription that ended.
    mutating func dropMutationPushes(of subscription: SubscriptionID) {
        latestMutationPush = latestMutationPush.filter { $0.key.subscription != subscription }
    }

    /// Everything queued, encoded in order, leaving the outbox empty.
    mutating func take() -> [UInt8] {
        if entries.count == 1, case .bytes(let only) = entries[0] {
            entries = []
            queuedBytes = 0
            return only
        }
        var out: [UInt8] = []
        out.reserveCapacity(queuedBytes)
        for entry in entries {
            switch entry {
            case .bytes(let bytes):
                out.append(contentsOf: bytes)
            case .push(let subscription, let slot):
                guard let pending = latestPush[subscription], pending.slot == slot else { continue }
                latestPush[subscription] = nil
                Outbox.writePush(pending.result, subscription: subscription, to: &out)
            case .mutationPush(let key):
                guard let state = latestMutationPush.removeValue(forKey: key) else { continue }
                let params: JSONValue = [
                    "subscription": .number(JSONNumber(key.subscription.rawValue)), "mutation": state.jsonValue,
                ]
                RPCWriter.notification(method: "mutation.changed", params: params, to: &out)
                out.append(UInt8(ascii: "\n"))
            }
        }
        entries = []
        latestPush = [:]
        latestMutationPush = [:]
        queuedBytes = 0
        return out
    }

    /// Writes one `query.changed` notification line.
    static func writePush(_ result: QueryResult, subscription: SubscriptionID, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"jsonrpc":"2.0","method":"query.changed","params":{"state":"#.utf8)
        result.write(to: &out)
        out.append(contentsOf: #","subscription":"#.utf8)
        out.append(contentsOf: String(subscription.rawValue).utf8)
        out.append(contentsOf: "}}\n".utf8)
    }
}
