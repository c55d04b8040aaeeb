// A connection's pending output: reply and request lines in order, and `query.changed` pushes
// that coalesce: a subscription with a push not yet written keeps one place in the queue and is
// written with its newest state (a subscriber needs the latest state, not every intermediate one).

import QuerydCore
import QuerydJSON
import QuerydRPC

/// Ordered output of one session, flushed once per event-loop iteration.
struct Outbox {
    private enum Entry {
        case bytes([UInt8])
        case push(SubscriptionID)
    }

    private var entries: [Entry] = []
    /// Pushes queued while a batch is being handled, appended when it is done.
    private var heldPushes: [SubscriptionID]?
    private var latestPush: [SubscriptionID: QueryResult] = [:]
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
        guard latestPush.updateValue(result, forKey: subscription) == nil else { return }
        if heldPushes != nil {
            heldPushes!.append(subscription)
        } else {
            entries.append(.push(subscription))
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
        entries.append(contentsOf: held.map(Entry.push))
    }

    /// Forgets unwritten pushes of a subscription that ended.
    mutating func dropPushes(of subscription: SubscriptionID) {
        latestPush[subscription] = nil
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
            case .push(let subscription):
                guard let result = latestPush.removeValue(forKey: subscription) else { continue }
                Outbox.writePush(result, subscription: subscription, to: &out)
            }
        }
        entries = []
        latestPush = [:]
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
