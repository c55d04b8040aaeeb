// Filter calls over many queries answer when their sweep is done: the engine works through them in
// slices, one per loop turn (`continueSweeps`, called by the daemon before it writes the turn's
// output), and reports the calls it finished.

import QuerydCore
import QuerydJSON

extension Server {
    /// Whether the engine has work left for `continueSweeps()`: the loop must not sleep meanwhile.
    public var hasPendingSweeps: Bool { cache.hasPendingSweeps }

    /// Does one slice of the engine's pending sweeps and answers the filter calls that finished
    /// (after the effects of their last slice).
    public func continueSweeps() {
        let finished = cache.continueSweeps()
        applyEffects()
        for (id, matched) in finished {
            sweepReplies.removeValue(forKey: id)?.succeed(["matched": .number(JSONNumber(matched))])
        }
        guard !cache.hasPendingSweeps, !repliesAfterSweeps.isEmpty else { return }
        let waiting = repliesAfterSweeps
        repliesAfterSweeps = []
        for (reply, result) in waiting { reply.succeed(result) }
    }

    /// Answers `reply` with `result` once no sweep is pending (now, if none is).
    func answerAfterSweeps(_ reply: PendingReply, _ result: JSONValue, session: Session) {
        guard cache.hasPendingSweeps else {
            reply.succeed(result)
            return
        }
        repliesAfterSweeps.append((reply, result))
        session.deferAnswer(reply, waiter: nil)
    }

    /// Answers `reply` with the count of `outcome`: now, or when its sweep is done.
    func answerFilterCall(_ outcome: FilterCallOutcome, reply: PendingReply, session: Session) {
        switch outcome {
        case .done(let matched):
            reply.succeed(["matched": .number(JSONNumber(matched))])
        case .pending(let id):
            sweepReplies[id] = reply
            session.deferAnswer(reply, waiter: nil)
        }
    }
}
