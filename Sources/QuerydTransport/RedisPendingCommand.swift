// A command sent on a Redis connection and not answered yet: the caller's reply handler, called at most once,
// and the queue of them in sending order that the link's watchdog checks for stalls.

/// One sent command. hiredis holds a +1 reference to it as the command's privdata until its reply callback (called
/// exactly once: with the reply, or with NULL when the context is freed first).
final class RedisPendingCommand {
    /// The connection the command went out on (kept alive until the reply callback, whatever happens to the link).
    let connection: RedisConnection
    /// The loop time (`uv_now`) after which the command counts as stalled.
    let deadline: UInt64
    private var handler: ((RedisReply) -> Void)?

    init(connection: RedisConnection, deadline: UInt64, handler: @escaping (RedisReply) -> Void) {
        self.connection = connection
        self.deadline = deadline
        self.handler = handler
    }

    /// True once the handler ran or was taken away.
    var isDone: Bool { handler == nil }

    /// Runs the handler with `reply`, unless it already ran or was taken.
    func complete(_ reply: RedisReply) {
        guard let handler else { return }
        self.handler = nil
        handler(reply)
    }

    /// Takes the handler out (the link delivers a failure itself); later completions do nothing.
    func take() -> ((RedisReply) -> Void)? {
        defer { handler = nil }
        return handler
    }
}

/// The caller commands sent on the command connection, oldest first. Replies come back in order, so completed
/// commands leave from the front; they are dropped lazily.
struct RedisCommandQueue {
    private var items: [RedisPendingCommand] = []
    private var head = 0

    /// Adds a command just sent.
    mutating func append(_ command: RedisPendingCommand) {
        dropCompleted()
        items.append(command)
    }

    /// The oldest command still waiting for its reply.
    mutating func oldest() -> RedisPendingCommand? {
        dropCompleted()
        return head < items.count ? items[head] : nil
    }

    /// Empties the queue and returns the handlers of the commands still waiting, oldest first.
    mutating func drain() -> [(RedisReply) -> Void] {
        let handlers = items[head...].compactMap { $0.take() }
        items = []
        head = 0
        return handlers
    }

    private mutating func dropCompleted() {
        while head < items.count && items[head].isDone {
            head += 1
        }
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1_024 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
