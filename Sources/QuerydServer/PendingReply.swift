// One request waiting for its answer, and the collector that turns a batch's answers into one line.
//
// Every request is answered exactly once: the first answer wins and later ones are ignored, so a
// waiter completing after a `$/cancelRequest` (or after shutdown answered it) cannot answer twice.

import QuerydCore
import QuerydJSON
import QuerydRPC

/// The answer slot of one request (or notification, whose answers are dropped).
final class PendingReply {
    /// The request id; nil for a notification.
    let id: RPCID?
    /// The session to answer to; its `session` is nil once the connection closed.
    let link: SessionLink
    /// The batch this request belongs to, with its position there.
    let batch: BatchReply?
    let slot: Int
    /// The engine wait behind a deferred answer, so a cancel can withdraw it.
    var waiter: WaiterToken?
    private(set) var isAnswered = false

    init(id: RPCID?, link: SessionLink, batch: BatchReply?, slot: Int) {
        self.id = id
        self.link = link
        self.batch = batch
        self.slot = slot
    }

    /// Answers with a result value.
    func succeed(_ result: JSONValue) {
        answer { id, out in RPCWriter.result(id: id, result: result, to: &out) }
    }

    /// Answers with a result already encoded as JSON (the cache-hit fast path).
    func succeed(encoded result: [UInt8]) {
        answer { id, out in RPCWriter.result(id: id, encodedResult: result, to: &out) }
    }

    /// Answers with a result written by `write`.
    func succeed(writing write: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        write(&bytes)
        succeed(encoded: bytes)
    }

    /// Answers with an error.
    func fail(_ error: RPCError) {
        answer { id, out in RPCWriter.error(id: id, error: error, to: &out) }
    }

    private func answer(_ write: (RPCID, inout [UInt8]) -> Void) {
        guard !isAnswered else { return }
        isAnswered = true
        guard let session = link.session else { return }
        // What the engine decided before this answer goes out first (pushes before the reply).
        session.server.applyEffects()
        session.replyFinished(self)
        guard let id else { return }
        let limit = session.server.configuration.maxOutboundBytes
        if let batch {
            var bytes: [UInt8] = []
            ReplyLimit.write(id: id, limit: limit, to: &bytes, write)
            batch.fill(slot, id: id, with: bytes)
        } else {
            session.outbox.appendLine { ReplyLimit.write(id: id, limit: limit, to: &$0, write) }
        }
    }
}

/// Collects the answers of one batch and writes them as one array line when the last arrives.
final class BatchReply {
    private var answers: [[UInt8]?]
    private var ids: [RPCID]
    private var remaining: Int
    /// The session to write to; its `session` is nil once the connection closed.
    let link: SessionLink

    init(link: SessionLink, expected: Int) {
        self.link = link
        self.answers = Array(repeating: nil, count: expected)
        self.ids = Array(repeating: .null, count: expected)
        self.remaining = expected
    }

    /// Stores an answer (one encoded response object, to request `id`) and writes the batch when
    /// it is complete.
    func fill(_ slot: Int, id: RPCID, with bytes: [UInt8]) {
        guard answers[slot] == nil else { return }
        answers[slot] = bytes
        ids[slot] = id
        remaining -= 1
        guard remaining == 0, let session = link.session else { return }
        fitAnswers(limit: session.server.configuration.maxOutboundBytes)
        session.outbox.appendLine { out in
            out.append(UInt8(ascii: "["))
            for (index, answer) in answers.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: answer!)
            }
            out.append(UInt8(ascii: "]"))
        }
    }
}

extension BatchReply {
    /// While the batch line (brackets, commas and newline included) would pass `limit`, replaces
    /// its largest answer by the -32006 `replyTooLarge` error, as a single reply would be.
    fileprivate func fitAnswers(limit: Int) {
        var total = answers.reduce(2) { $0 + $1!.count + 1 }
        guard total > limit else { return }
        for slot in answers.indices.sorted(by: { answers[$0]!.count > answers[$1]!.count }) {
            var error: [UInt8] = []
            RPCWriter.error(id: ids[slot], error: .replyTooLarge(bytes: total, limit: limit), to: &error)
            total += error.count - answers[slot]!.count
            answers[slot] = error
            if total <= limit { return }
        }
    }
}

/// The way back to a session for what answers it later (replies, batches): strong, and cleared by
/// `Session.transportClosed`, which also breaks the cycle with the session. A weak reference would
/// behave alike, but would give the session a side table, and every retain and release of a
/// session (several per request and per flush) would then take the runtime's slow path.
final class SessionLink {
    /// The session, until its connection closed.
    var session: Session?
}
