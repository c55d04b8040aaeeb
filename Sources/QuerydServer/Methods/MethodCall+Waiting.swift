// Methods whose answer the engine gives later: the request is registered under a waiter token,
// the engine input gets the token, and the engine's `answer` effect names it when the answer is
// ready (at once for a cache hit, or when a fetch or mutation settles).

import QuerydCore
import QuerydRPC

extension MethodCall {
    /// Runs `start` with a new waiter token for this request. `start` returns false when the
    /// engine will not answer (the request is then answered null). An answer not given at once is
    /// deferred; with `cancellable`, a `$/cancelRequest` or the connection closing withdraws the
    /// engine's wait, otherwise the work goes on and its late answer is dropped.
    func awaitAnswer(cancellable: Bool = true, _ start: (WaiterToken) throws(CacheFailure) -> Bool)
        throws(RPCError)
    {
        let token = server.waitForAnswer(reply)
        let answers: Bool
        do {
            answers = try start(token)
        } catch {
            _ = server.waitingCallers.take(token)
            throw RPCError(failure: error)
        }
        guard answers else {
            _ = server.waitingCallers.take(token)
            reply.succeed(.null)
            return
        }
        session.deferAnswer(reply, waiter: cancellable ? token : nil)
    }
}
