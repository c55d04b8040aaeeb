// Commands on the link: sending one on the command connection, the commands the link refuses, and the watchdog
// that fails every outstanding command and reconnects when the oldest one outlives the timeout (Redis stalled).

extension RedisLink {
    /// Sends one command (arguments as binary-safe byte strings) on the command connection.
    /// `reply` runs exactly once, on the loop: with Redis's reply, or with `.error("QUERYD-DISCONNECTED …")`
    /// when the link is not connected, drops before the reply, or the reply takes longer than the timeout.
    /// Commands that would change the connection itself (SUBSCRIBE and its kin, MONITOR, HELLO, CLIENT REPLY,
    /// CLIENT TRACKING, SYNC, PSYNC, RESET, QUIT) get `.error("QUERYD-REFUSED …")`. Failures found at once are delivered on the next loop turn,
    /// never from inside `send`. Blocking commands count against the timeout like any other.
    public func send(_ arguments: [[UInt8]], reply: @escaping (RedisReply) -> Void) {
        loop.assertInLoopThread()
        if let refusal = Self.refusal(of: arguments) {
            return onNextTurn { reply(.error(refusal)) }
        }
        guard state == .connected, let connection = commandConnection else {
            return onNextTurn { reply(.error(RedisReply.disconnected("the link to Redis is not connected"))) }
        }
        let deadline = loop.nowMilliseconds + UInt64(commandTimeoutMilliseconds)
        let command = RedisPendingCommand(connection: connection, deadline: deadline, handler: reply)
        guard connection.send(arguments, command) else {
            onNextTurn { [weak self] in self?.connection(connection, didFail: "hiredis refused a command") }
            return onNextTurn { reply(.error(RedisReply.disconnected("the command connection is closing"))) }
        }
        outstanding.append(command)
        if !watchdog.isScheduled { armWatchdog() }
    }

    /// Schedules the watchdog at the oldest outstanding command's deadline; fails the link if it has passed.
    private func armWatchdog() {
        guard state == .connected, let oldest = outstanding.oldest() else { return }
        let now = loop.nowMilliseconds
        guard oldest.deadline > now else {
            return fail("no reply from Redis within \(commandTimeoutMilliseconds) ms")
        }
        watchdog.schedule(afterMilliseconds: oldest.deadline - now) { [weak self] in self?.armWatchdog() }
    }

    /// Why `arguments` may not go through `send`, or nil.
    static func refusal(of arguments: [[UInt8]]) -> String? {
        guard let first = arguments.first else { return "QUERYD-REFUSED an empty command" }
        let name = String(decoding: first, as: UTF8.self).lowercased()
        let second = arguments.count > 1 ? String(decoding: arguments[1], as: UTF8.self).lowercased() : ""
        let refused =
            connectionStateCommands.contains(name) || (name == "client" && (second == "reply" || second == "tracking"))
        return refused ? "QUERYD-REFUSED \(name) would change the link's connection; not sent" : nil
    }

    /// Commands after which replies no longer pair one-to-one with commands (or RESP2 no longer holds).
    private static let connectionStateCommands: Set<String> = [
        "subscribe", "psubscribe", "ssubscribe", "unsubscribe", "punsubscribe", "sunsubscribe", "monitor", "hello",
        "sync", "psync", "reset", "quit",
    ]
}
