// The requests waiting for the engine to answer them, by the token the engine names them by.
//
// A method that waits registers its reply here and hands the token to the engine; the engine's
// `answer` / `answerMutation` effect names the token, and the server answers that reply. A reply
// answered meanwhile (`$/cancelRequest`, shutdown, a closed connection) ignores the late answer.

import QuerydCore

/// The replies waiting for an engine answer, by waiter token.
struct WaitingCallers {
    private var lastToken = 0
    private var replies: [WaiterToken: PendingReply] = [:]

    /// Registers `reply` and returns the token the engine answers it by.
    mutating func add(_ reply: PendingReply) -> WaiterToken {
        lastToken += 1
        let token = WaiterToken(lastToken)
        replies[token] = reply
        return token
    }

    /// Forgets the reply waiting under `token` and returns it (nil when none waits).
    mutating func take(_ token: WaiterToken) -> PendingReply? {
        replies.removeValue(forKey: token)
    }
}
