// One hiredis async connection (redisAsyncContext) attached to the loop with hiredis's libuv adapter: opening it,
// sending commands on it, freeing it, and the C callbacks that reach the Swift side. The lifetime rules between the
// context, this object and the command boxes are all here.
import CHiredis

/// One hiredis async context. Lifetime: the context's `data` field holds a +1 reference to this object from `open`
/// until hiredis is done with the context: the disconnect callback (a context that connected), the connect
/// callback reporting failure, or `free` of a context that never connected (hiredis calls neither then). hiredis
/// frees the context itself right after those callbacks, so `context` is cleared in them and never used again.
final class RedisConnection {
    /// What the link uses the connection for.
    enum Role: String {
        case command
        case subscriber
    }

    let role: Role
    /// The link being served; cleared when the link retires the connection, so that nothing hiredis reports while
    /// freeing it reaches the link.
    weak var link: RedisLink?
    /// The hiredis context, nil once hiredis freed it (or is about to, inside its final callback).
    private(set) var context: UnsafeMutablePointer<redisAsyncContext>?
    /// True once `free` was called: the context may not be used for new commands.
    private var freeing = false
    /// True once the handshake (AUTH, SELECT, subscriptions) is complete.
    var isReady = false
    /// Subscriber connections: true once SUBSCRIBE may be sent (the handshake commands were answered).
    var acceptsSubscriptions = false
    /// Subscriber connections: channels subscribed in the handshake whose confirmation has not arrived.
    var awaitingConfirmation: Set<[UInt8]> = []

    init(role: Role, link: RedisLink) {
        self.role = role
        self.link = link
    }

    /// Starts connecting to `endpoint` on `loop`. Returns why it failed at once, or nil (the outcome then arrives
    /// through the link's `connectionDidConnect` or `connection(_:didFail:)`).
    func open(_ endpoint: RedisEndpoint, on loop: EventLoop) -> String? {
        let opened: UnsafeMutablePointer<redisAsyncContext>? =
            switch endpoint {
            case .tcp(let host, let port, _): redisAsyncConnect(host, Int32(port))
            case .unix(let path, _): redisAsyncConnectUnix(path)
            }
        guard let opened else { return "cannot allocate a hiredis context" }
        if opened.pointee.err != 0 {
            let message = String(cString: queryd_redis_error(opened))
            // Not attached, no callback set: hiredis frees the context and the socket, and calls nothing.
            redisAsyncFree(opened)
            return message
        }
        opened.pointee.data = Unmanaged.passRetained(self).toOpaque()
        context = opened
        guard queryd_redis_attach(opened, UnsafeMutableRawPointer(loop.rawLoop)) == REDIS_OK else {
            free()
            return "cannot attach the hiredis context to the loop"
        }
        redisAsyncSetConnectCallback(opened) { context, status in
            let connection = RedisConnection.owner(of: context)
            if status == REDIS_OK {
                connection.link?.hiredisCallback { $0.connectionDidConnect(connection) }
            } else {
                connection.finish(reason: String(cString: queryd_redis_error(context!)))
            }
        }
        redisAsyncSetDisconnectCallback(opened) { context, status in
            let connection = RedisConnection.owner(of: context)
            let reason = status == REDIS_OK ? "connection closed" : String(cString: queryd_redis_error(context!))
            connection.finish(reason: reason)
        }
        return nil
    }

    /// Sends `arguments` as one command; `command` gets the reply. Returns false (and `command` is never called by
    /// hiredis) when the context is gone or refuses new commands.
    func send(_ arguments: [[UInt8]], _ command: RedisPendingCommand) -> Bool {
        guard let context, !freeing else { return false }
        // Safety: the +1 reference is balanced in the reply callback, which hiredis calls exactly once per queued
        // command (with NULL when the context is freed first), or just below if the command was not queued.
        let privdata = Unmanaged.passRetained(command).toOpaque()
        let status = Self.withArgv(arguments) { count, argv, lengths in
            redisAsyncCommandArgv(
                context,
                { _, reply, privdata in
                    let command = Unmanaged<RedisPendingCommand>.fromOpaque(privdata!).takeRetainedValue()
                    command.connection.commandDidReply(command, reply)
                }, privdata, count, argv, lengths)
        }
        guard status == REDIS_OK else {
            Unmanaged<RedisPendingCommand>.fromOpaque(privdata).release()
            return false
        }
        return true
    }

    /// Sends `SUBSCRIBE` or `UNSUBSCRIBE` for `channels`; confirmations and messages arrive in `link.subscriber(…)`.
    /// Returns false when hiredis refused (the context is going away, or UNSUBSCRIBE on an unsubscribed context).
    @discardableResult
    func sendSubscription(_ verb: String, _ channels: [[UInt8]]) -> Bool {
        guard let context, !freeing, !channels.isEmpty else { return false }
        // hiredis keeps one callback per channel and calls it for every confirmation and message, and once with
        // NULL per channel when the context is freed: the privdata is nil and the owner is found through `data`,
        // which holds this object until after those calls (see the type's comment).
        let status = Self.withArgv([Array(verb.utf8)] + channels) { count, argv, lengths in
            redisAsyncCommandArgv(
                context,
                { context, reply, _ in
                    let connection = RedisConnection.owner(of: context)
                    connection.link?.hiredisCallback { link in
                        if let reply {
                            link.subscriber(connection, didReceive: RedisReply(reply))
                        } else {
                            link.connection(connection, didFail: "connection lost")
                        }
                    }
                }, nil, count, argv, lengths)
        }
        return status == REDIS_OK
    }

    /// Frees the context now: hiredis answers every queued command with NULL and, if the context had connected,
    /// calls the disconnect callback, all before this returns. Never call it from inside a hiredis callback (the
    /// link defers it): hiredis 0.14 would use the freed context after the connect or disconnect callback returns.
    func free() {
        guard let context, !freeing else { return }
        freeing = true
        let reportsDisconnect = queryd_redis_is_connected(context) != 0
        redisAsyncFree(context)
        if !reportsDisconnect {
            finish(reason: "connection abandoned")
        }
    }

    /// Delivers one reply (or NULL: the context is being freed, and the link goes down first) to its command.
    private func commandDidReply(_ command: RedisPendingCommand, _ reply: UnsafeMutableRawPointer?) {
        let lost = "connection lost before the reply"
        let value = reply.map(RedisReply.init) ?? .error(RedisReply.disconnected(lost))
        // A retired connection's commands were answered by the link already: completing them does nothing.
        guard let link else { return command.complete(value) }
        link.hiredisCallback { link in
            if reply == nil { link.connection(self, didFail: lost) }
            command.complete(value)
        }
    }

    /// hiredis is done with the context: forget it, tell the link, and balance the reference taken in `open`.
    private func finish(reason: String) {
        guard context != nil else { return }
        context = nil
        link?.hiredisCallback { $0.connection(self, didFail: reason) }
        // Safety: balances the `passRetained` of `open`; the caller (a hiredis callback or `free`, called by the link)
        // still holds its own reference to this object.
        Unmanaged.passUnretained(self).release()
    }

    /// The connection whose +1 reference is stored in the context's `data` field.
    private static func owner(of context: UnsafePointer<redisAsyncContext>?) -> RedisConnection {
        // Safety: `data` was set in `open` and holds its reference until `finish`, which runs in (or after) the last
        // callback hiredis makes that reads it.
        Unmanaged<RedisConnection>.fromOpaque(context!.pointee.data!).takeUnretainedValue()
    }

    private static func owner(of context: UnsafeMutablePointer<redisAsyncContext>?) -> RedisConnection {
        owner(of: UnsafePointer(context))
    }

    /// Calls `body` with hiredis's argv form of `arguments` (pointers and lengths into one contiguous copy).
    private static func withArgv(
        _ arguments: [[UInt8]],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Int32
    ) -> Int32 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        offsets.reserveCapacity(arguments.count)
        for argument in arguments {
            offsets.append(bytes.count)
            bytes.append(contentsOf: argument)
        }
        bytes.append(0)  // never an empty buffer, so every pointer below is valid
        let lengths = arguments.map(\.count)
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = offsets.map { base + $0 }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { body(Int32(arguments.count), argv.baseAddress!, $0.baseAddress!) }
            }
        }
    }
}
