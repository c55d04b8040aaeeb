// A connection's pending output: reply and request lines in order, and `query.changed` (and
// `mutation.changed`) pushes that coalesce: a subscription with a push not yet written keeps one
// place in the queue and is written with its newest state (a subscriber needs the latest state,
// not every intermediate one). A query push names its `QueryView` by its index in the outbox's
// list of views (one per publish, however many subscriptions it reaches: queuing, writing and
// emptying a push then retains and releases nothing), and that view's encoded state object is shared
// by every subscription pushed it, so writing a push copies those bytes. Where each pending push
// sits is indexed only when asked for (a push to a subscription that may have one pending, a
// dropped push): a filter of the pending subscription ids answers "none" for the usual push.
// Subscriptions with protocol 2's `push` or `echo` options are registered with the outbox; their
// pushes queue and coalesce the same way and are written in their mode when the outbox is flushed
// (ModePushWriter.swift). A connection without such subscriptions pays one flag test per flush.

import QuerydCore
import QuerydJSON
import QuerydRPC

/// Ordered output of one session, flushed once per event-loop iteration.
struct Outbox {
    /// A queued line, a pending push, or the place of a push that was dropped (by `query.setOptions`
    /// or `query.unsubscribe`; a later push of that subscription takes a new place at the end).
    private enum Entry {
        case bytes([UInt8])
        /// A query push: its subscription and the index of its newest view in `pushViews`.
        case push(SubscriptionID, view: Int)
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
    /// Lines appended since the last entry of another kind, not yet an entry: most output is
    /// replies one after another, written here with no entry made, taken out and put back per line.
    private var openLine: [UInt8] = []
    /// Pushes queued while a batch is being handled, appended when it is done.
    private var heldPushes: [Entry]?
    /// The views the pushes queued (and held) since the last take are of, in the order first queued.
    private var pushViews: [QueryView] = []
    /// The place of the pending query pushes in the first `indexedEntries` entries and the first
    /// `indexedHeld` held pushes (the others are listed when a lookup needs them: `indexPlaces`).
    private var pushPlaces = PushPlaces()
    private var indexedEntries = 0
    private var indexedHeld = 0
    /// Every subscription with a pending query push is in it (and perhaps some others).
    private var pendingPushes = PendingPushFilter()
    private var latestMutationPush: [MutationPushKey: MutationState] = [:]
    /// The subscriptions with a `push` mode other than "state" or `echo: false`, and the patch
    /// bases; `hasModes` says whether there are any (tested once per flush, never per push).
    private var modePushes = ModePushWriter()
    private var hasModes = false
    /// The emptied buffer of the last line `take` returned alone, given back by `recycle`, for the
    /// next line to be written into (one connection, one request, one reply: no allocation per reply).
    private var spareLine: [UInt8] = []
    /// Bytes of lines queued (pushes not counted until written).
    private(set) var queuedBytes = 0
    /// The longest line the connection may be sent (`--max-outbound-bytes`): a push whose line
    /// would be longer is sent without its data (see `Outbox.dataOmittedPush`).
    var lineLimit = Int.max

    var isEmpty: Bool { entries.isEmpty && openLine.isEmpty && (heldPushes?.isEmpty ?? true) }

    /// Appends one line written by `write`, plus its newline.
    mutating func appendLine(_ write: (inout [UInt8]) -> Void) {
        // The buffer of the last line written alone, when there is one: its storage is reused.
        if openLine.capacity == 0 { swap(&openLine, &spareLine) }
        let before = openLine.count
        write(&openLine)
        openLine.append(UInt8(ascii: "\n"))
        queuedBytes += openLine.count - before
    }

    /// Makes the open lines an entry, so that what comes next is queued after them.
    private mutating func closeOpenLine() {
        guard !openLine.isEmpty else { return }
        entries.append(.bytes(openLine))
        openLine = []
    }

    /// Queues a push of `view` to `subscription`, replacing an unwritten older one in its place.
    mutating func appendPush(_ view: QueryView, to subscription: SubscriptionID) {
        let held = heldPushes != nil
        if !held { closeOpenLine() }
        // Pushes of one publish come one after another with the same view.
        if pushViews.isEmpty || pushViews[pushViews.count - 1] !== view { pushViews.append(view) }
        let entry = Entry.push(subscription, view: pushViews.count - 1)
        if pendingPushes.insert(subscription.rawValue) {
            // It may have a pending push: one lookup records `fresh` when it has none, else reads its place.
            indexPlaces()
            let fresh = Place(held: held, index: held ? heldPushes!.count : entries.count)
            if let place = pushPlaces.place(of: subscription.rawValue, recordingIfNone: fresh) {
                put(entry, at: place)
                return
            }
            if held { indexedHeld += 1 } else { indexedEntries += 1 }
        }
        if held {
            heldPushes!.append(entry)
        } else {
            entries.append(entry)
        }
    }

    /// Lists the places of the pending pushes queued since the last listing in `pushPlaces`.
    private mutating func indexPlaces() {
        while indexedEntries < entries.count {
            if case .push(let subscription, _) = entries[indexedEntries] {
                pushPlaces.set(Place(held: false, index: indexedEntries), for: subscription.rawValue)
            }
            indexedEntries += 1
        }
        guard let held = heldPushes else { return }
        while indexedHeld < held.count {
            if case .push(let subscription, _) = held[indexedHeld] {
                pushPlaces.set(Place(held: true, index: indexedHeld), for: subscription.rawValue)
            }
            indexedHeld += 1
        }
    }

    /// Queues a `mutation.changed` push of `state` to `subscription`, replacing an unwritten
    /// older push of the same mutation to that subscription.
    mutating func appendMutationPush(_ state: MutationState, to subscription: SubscriptionID) {
        let key = MutationPushKey(subscription: subscription, mutation: state.id)
        guard latestMutationPush.updateValue(state, forKey: key) == nil else { return }
        if heldPushes == nil { closeOpenLine() }
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
        // With every place listed, the held pushes' new places replace their old ones.
        indexPlaces()
        heldPushes = nil
        indexedHeld = 0
        closeOpenLine()
        let base = entries.count
        for (offset, entry) in held.enumerated() {
            if case .push(let subscription, _) = entry {
                pushPlaces.set(Place(held: false, index: base + offset), for: subscription.rawValue)
            }
        }
        entries.append(contentsOf: held)
        indexedEntries = entries.count
    }

    /// Registers how a subscription is pushed to (its subscribe or setOptions reply, carrying
    /// `result`, is queued before any later push of it).
    mutating func setDelivery(of subscription: SubscriptionID, push: PushMode, echo: Bool, reply result: QueryResult) {
        modePushes.register(subscription, push: push, echo: echo, reply: result)
        hasModes = !modePushes.isEmpty
    }

    /// After this connection's own `query.set` of `key`: drops the pushes it queued to this
    /// connection's `echo: false` subscriptions (the reply has that state, and it supersedes a push
    /// of theirs still queued). The engine counts that state as sent to them.
    mutating func dropEchoes(ofWriteTo key: QueryKey) {
        guard hasModes else { return }
        indexPlaces()
        for subscription in modePushes.subscriptionsWithoutEcho {
            guard let place = pushPlaces.remove(subscription.rawValue) else { continue }
            let entry = place.held ? heldPushes![place.index] : entries[place.index]
            if case .push(_, let view) = entry, pushViews[view].result.key == key {
                put(.droppedPush, at: place)
            } else {
                pushPlaces.set(place, for: subscription.rawValue)
            }
        }
    }

    /// Forgets unwritten pushes of a subscription that ended or changed, and how it is pushed to.
    mutating func dropPushes(of subscription: SubscriptionID) {
        if hasModes {
            modePushes.forget(subscription)
            hasModes = !modePushes.isEmpty
        }
        guard pendingPushes.contains(subscription.rawValue) else { return }
        indexPlaces()
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

    /// Leaves the outbox empty: returns the queued lines as they are when nothing else is queued,
    /// or else encodes everything queued, in order, into `out` (emptied first; a buffer reused
    /// between flushes keeps its capacity) and returns nil.
    mutating func take(orEncodeInto out: inout [UInt8]) -> [UInt8]? {
        if entries.isEmpty {
            queuedBytes = 0
            defer { openLine = [] }
            return openLine
        }
        closeOpenLine()
        if hasModes {
            takeWritingModes(into: &out)
            return nil
        }
        // Pushes of one publish follow one another with the same view: its framed bytes are asked
        // for once per run of pushes, not once per push.
        var size = queuedBytes
        var sized = (view: -1, count: 0)
        var hasMutationPush = false
        var hasOversizedPush = false
        for entry in entries {
            switch entry {
            case .push(_, let view):
                if sized.view != view {
                    sized = (view, framedState(view).count)
                    hasOversizedPush = hasOversizedPush || sized.count + Outbox.pushTailReserve > lineLimit
                }
                size += sized.count + Outbox.pushTailReserve
            case .mutationPush:
                hasMutationPush = true
            case .bytes, .droppedPush:
                continue
            }
        }
        if hasOversizedPush {
            omitOversizedData()
            return take(orEncodeInto: &out)
        }
        // Many pushes are copied into a new array; a few are appended to `out`, whose capacity is
        // kept between flushes (a connection with one subscription then allocates nothing).
        if !hasMutationPush, entries.count >= 8 {
            out = Outbox.copyLines(entries, views: pushViews, size: size)
            clearAfterTake()
            return nil
        }
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(size)
        var framed: (view: Int, bytes: [UInt8]) = (-1, [])
        for entry in entries {
            switch entry {
            case .bytes(let bytes):
                out.append(contentsOf: bytes)
            case .push(let subscription, let view):
                if framed.view != view { framed = (view, framedState(view)) }
                out.append(contentsOf: framed.bytes)
                Outbox.writeIDAndTail(subscription.rawValue, to: &out)
            case .droppedPush:
                continue
            case .mutationPush(let key):
                writeMutationPush(key, to: &out)
            }
        }
        clearAfterTake()
        return nil
    }

    /// `take(orEncodeInto:)` for an outbox with subscriptions pushed in other modes: every entry
    /// written one by one, each push in its subscription's mode.
    private mutating func takeWritingModes(into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        for entry in entries {
            switch entry {
            case .bytes(let bytes):
                out.append(contentsOf: bytes)
            case .push(let subscription, let index):
                let view = pushViews[index]
                if !modePushes.write(view, to: subscription, into: &out) {
                    let framed = view.encodedState(after: Outbox.pushHead, before: Outbox.pushMember)
                    let line = framed.count + Outbox.pushTailReserve
                    if line > lineLimit {
                        out.append(
                            contentsOf: Outbox.dataOmittedPush(view, to: subscription, bytes: line, limit: lineLimit))
                    } else {
                        out.append(contentsOf: framed)
                        Outbox.writeIDAndTail(subscription.rawValue, to: &out)
                    }
                }
            case .droppedPush:
                continue
            case .mutationPush(let key):
                writeMutationPush(key, to: &out)
            }
        }
        clearAfterTake()
    }

    /// Appends the `mutation.changed` line of a pending mutation push.
    private mutating func writeMutationPush(_ key: MutationPushKey, to out: inout [UInt8]) {
        guard let state = latestMutationPush.removeValue(forKey: key) else { return }
        let params: JSONValue = [
            "subscription": .number(JSONNumber(key.subscription.rawValue)), "mutation": state.jsonValue,
        ]
        RPCWriter.notification(method: "mutation.changed", params: params, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// Replaces each push whose line would be longer than `lineLimit` by its line without data
    /// (`Outbox.dataOmittedPush`), as a queued line.
    private mutating func omitOversizedData() {
        for index in entries.indices {
            guard case .push(let subscription, let view) = entries[index] else { continue }
            let line = framedState(view).count + Outbox.pushTailReserve
            guard line > lineLimit else { continue }
            let omitted = Outbox.dataOmittedPush(pushViews[view], to: subscription, bytes: line, limit: lineLimit)
            queuedBytes += omitted.count
            entries[index] = .bytes(omitted)
        }
    }

    /// Empties what `take` wrote (held pushes stay).
    private mutating func clearAfterTake() {
        // Capacity is kept for the next flush (pushes come in waves), unless a burst made it large.
        entries.removeAll(keepingCapacity: entries.count <= 256)
        forgetWrittenPlaces()
        latestMutationPush = [:]
        queuedBytes = 0
    }

    /// The `query.changed` line of the view at `index` of `pushViews` up to its subscription id.
    private func framedState(_ index: Int) -> [UInt8] {
        pushViews[index].encodedState(after: Outbox.pushHead, before: Outbox.pushMember)
    }

    /// The lines and query pushes of `entries` (no mutation pushes), in order, copied straight into
    /// a new array of at most `size` bytes: one copy per line or framed view, no append per piece.
    private static func copyLines(_ entries: [Entry], views: [QueryView], size: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard var next = buffer.baseAddress else { return }
            var framed: (view: Int, bytes: [UInt8]) = (-1, [])
            for entry in entries {
                switch entry {
                case .bytes(let bytes):
                    next = bytes.withUnsafeBufferPointer { copy($0, to: next) }
                case .push(let subscription, let view):
                    if framed.view != view {
                        framed = (view, views[view].encodedState(after: Outbox.pushHead, before: Outbox.pushMember))
                    }
                    next = framed.bytes.withUnsafeBufferPointer { copy($0, to: next) }
                    next = writeIDAndTail(subscription.rawValue, at: next)
                case .droppedPush, .mutationPush:
                    continue
                }
            }
            count = next - buffer.baseAddress!
        }
    }

    /// Copies `bytes` to `next`; returns the address after them.
    private static func copy(_ bytes: UnsafeBufferPointer<UInt8>, to next: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        guard let base = bytes.baseAddress else { return next }
        next.initialize(from: base, count: bytes.count)
        return next + bytes.count
    }

    /// Writes `id` in decimal (as `String(id)` spells it), then `}}` and a newline, at `next` (room
    /// for 23 bytes); returns the address after them.
    private static func writeIDAndTail(_ id: Int, at next: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let at = JSONWriter.writeInteger(Int64(id), at: next)
        at.initialize(to: UInt8(ascii: "}"))
        (at + 1).initialize(to: UInt8(ascii: "}"))
        (at + 2).initialize(to: UInt8(ascii: "\n"))
        return at + 3
    }

    /// Takes back a line returned by `take(orEncodeInto:)` once it is written (leaving `line`
    /// empty): its storage holds the next line, unless it is large (a big reply's buffer is not
    /// kept for the life of the connection).
    mutating func recycle(_ line: inout [UInt8]) {
        guard line.capacity <= Outbox.spareLineCapacity, line.capacity > spareLine.capacity else {
            line = []
            return
        }
        swap(&spareLine, &line)
        spareLine.removeAll(keepingCapacity: true)
        line = []
    }

    /// The largest line buffer `recycle` keeps (a few small replies; bigger lines are not kept, so
    /// ten thousand idle connections hold at most 80 MB of spare lines, and usually far less).
    static let spareLineCapacity = 8 * 1024

    /// Keeps only the views and filter entries of held pushes (the others were just written); their
    /// places are listed again when next needed.
    private mutating func forgetWrittenPlaces() {
        pushPlaces.removeAll()
        indexedEntries = 0
        indexedHeld = 0
        pendingPushes.removeAll()
        guard var held = heldPushes, !held.isEmpty else {
            pushViews.removeAll(keepingCapacity: pushViews.count <= 256)
            return
        }
        var kept: [QueryView] = []
        for index in held.indices {
            guard case .push(let subscription, let view) = held[index] else { continue }
            if kept.isEmpty || kept[kept.count - 1] !== pushViews[view] { kept.append(pushViews[view]) }
            held[index] = .push(subscription, view: kept.count - 1)
            _ = pendingPushes.insert(subscription.rawValue)
        }
        heldPushes = held
        pushViews = kept
    }

    private mutating func put(_ entry: Entry, at place: Place) {
        if place.held {
            heldPushes![place.index] = entry
        } else {
            entries[place.index] = entry
        }
    }

    /// The bytes of a `query.changed` line after its framed state: the subscription id, counted at
    /// 20 digits, `}}` and the newline.
    private static let pushTailReserve = 20 + 3
    private static let pushHead: StaticString = #"{"jsonrpc":"2.0","method":"query.changed","params":{"state":"#
    private static let pushMember: StaticString = #","subscription":"#

    /// Appends `id` in decimal, then `}}` and a newline.
    private static func writeIDAndTail(_ id: Int, to out: inout [UInt8]) {
        JSONWriter.writeInteger(Int64(id), to: &out)
        ("}}\n" as StaticString).withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
