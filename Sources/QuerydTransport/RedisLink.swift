// The Redis link: two hiredis async connections on the loop (commands, and pub/sub), their shared state machine
// (connecting → connected → disconnected → connecting …), reconnection with backoff, and stop.
import CHiredis

/// Where the link is in its cycle.
public enum RedisLinkState: Sendable, Equatable {
    /// Connecting both connections and running their handshakes (AUTH, SELECT, SUBSCRIBE).
    case connecting
    /// Both connections are up, authenticated, on their database and subscribed.
    case connected
    /// Not started, stopped, or waiting to reconnect after a failure.
    case disconnected
}

/// Two hiredis async connections on the loop: one for commands, one subscribed to channels.
///
/// Everything runs on the loop thread: no thread, no blocking call. The link never gives up: after a failure
/// (unreachable, refused, wrong password, connection lost, a command unanswered within the timeout) it reconnects
/// with `ReconnectDelays` until `stop()`. A started link keeps itself alive (the loop holds it) until `stop()` has
/// freed its connections, or until the loop's `close()`.
public final class RedisLink: LoopHandleOwner {
    /// The server.
    public let endpoint: RedisEndpoint
    /// How long a command may wait for its reply (and a connection for its handshake) before Redis counts as
    /// stalled and the link reconnects.
    public let commandTimeoutMilliseconds: Int
    /// The state; changes are reported to `onStateChange`.
    public private(set) var state: RedisLinkState = .disconnected
    /// Successful reconnections after the first connect.
    public private(set) var reconnects = 0
    /// Why the link last went down or last failed to come up (hiredis's error or the link's own), for logs.
    public private(set) var lastFailure: String?
    /// Called on the loop whenever `state` changes (connecting → connected → disconnected → connecting …).
    public var onStateChange: ((RedisLinkState) -> Void)?
    /// Called on the loop for every pub/sub message on a subscribed channel.
    public var onMessage: ((_ channel: [UInt8], _ payload: [UInt8]) -> Void)?

    let loop: EventLoop
    let credentials: RedisCredentials?
    let delays: ReconnectDelays
    /// The current connections (nil while disconnected).
    private(set) var commandConnection: RedisConnection?
    private(set) var subscriberConnection: RedisConnection?
    /// Caller commands waiting for their reply on the command connection.
    var outstanding = RedisCommandQueue()
    /// The channels the subscriber connection should be subscribed to.
    var channels: Set<[UInt8]> = []
    /// Arms at the handshake deadline while connecting, at the oldest command's deadline while connected.
    let watchdog: LoopTimer
    private let reconnectTimer: LoopTimer
    private var started = false
    private var stopped = false
    private var hasConnected = false
    private var failures = 0
    /// The number of the current connection attempt; results of older attempts' lookups are ignored.
    private var attempt = 0
    /// Host name lookups still running, by attempt (they keep the link registered until their callback).
    private var lookups: [Int: RedisHostLookup] = [:]
    private var random = SystemRandomNumberGenerator()
    /// How many hiredis callbacks of this link are running (nested); contexts are only freed at depth 0.
    private var callbackDepth = 0
    private var nextTurn: [() -> Void] = []
    private var nextTurnTimer: LoopTimer?
    private var registered = false
    private var closed = false

    /// A link to `endpoint`, authenticating with `credentials` (if any) after each connect. Call `start()`.
    public init(
        loop: EventLoop, endpoint: RedisEndpoint, credentials: RedisCredentials?,
        commandTimeoutMilliseconds: Int = 2_000, reconnectDelays: ReconnectDelays = .standard
    ) {
        loop.assertInLoopThread()
        precondition(commandTimeoutMilliseconds > 0, "RedisLink: the command timeout must be positive")
        self.loop = loop
        self.endpoint = endpoint
        self.credentials = credentials
        self.commandTimeoutMilliseconds = commandTimeoutMilliseconds
        self.delays = reconnectDelays
        watchdog = LoopTimer(loop: loop)
        reconnectTimer = LoopTimer(loop: loop)
    }

    /// Connects both connections; the link is `connected` once both are up, AUTH and SELECT are done and the
    /// subscriptions are restored. Ignored when already started or stopped. hiredis writes with `write(2)`, so
    /// SIGPIPE is ignored for the process (`EventLoop.ignoreSIGPIPE()`): a write to a dead Redis must not kill it.
    public func start() {
        loop.assertInLoopThread()
        guard !started, !stopped else { return }
        started = true
        EventLoop.ignoreSIGPIPE()
        updateRegistration()
        connect()
    }

    /// Disconnects for good: fails outstanding commands (with the `QUERYD-DISCONNECTED` error), frees both
    /// connections and the timers. Safe to call twice, and from inside any callback of the link.
    public func stop() {
        loop.assertInLoopThread()
        guard !stopped else { return }
        stopped = true
        let failed = outstanding.drain()
        retireConnections()
        for lookup in lookups.values { lookup.cancel() }
        watchdog.close()
        reconnectTimer.close()
        let changed = state != .disconnected
        state = .disconnected
        if changed { onStateChange?(.disconnected) }
        let failure = RedisReply.error(RedisReply.disconnected("the link was stopped"))
        for handler in failed { handler(failure) }
        updateRegistration()
    }

    /// A new attempt: a host name is looked up first (off the loop thread), then both connections are opened;
    /// their handshakes run from `connectionDidConnect`.
    private func connect() {
        guard !stopped else { return }
        state = .connecting
        onStateChange?(.connecting)
        guard !stopped, state == .connecting else { return }
        attempt += 1
        let timeout = commandTimeoutMilliseconds
        watchdog.schedule(afterMilliseconds: UInt64(timeout)) { [weak self] in
            self?.fail("no handshake reply from Redis within \(timeout) ms")
        }
        guard case .tcp(let host, let port, let database) = endpoint, !RedisHostLookup.isNumeric(host) else {
            return open(endpoint)
        }
        let attempt = self.attempt
        lookups[attempt] = RedisHostLookup.start(loop: loop, host: host) { [weak self] outcome in
            guard let self else { return }
            self.lookups[attempt] = nil
            self.updateRegistration()
            guard attempt == self.attempt, self.state == .connecting else { return }
            switch outcome {
            case .address(let address): self.open(.tcp(host: address, port: port, database: database))
            case .failure(let message): self.fail("cannot resolve \(host): \(message)")
            }
        }
        updateRegistration()
    }

    /// Opens both connections to `target` (the endpoint, with a numeric address for a TCP host).
    private func open(_ target: RedisEndpoint) {
        let command = RedisConnection(role: .command, link: self)
        let subscriber = RedisConnection(role: .subscriber, link: self)
        commandConnection = command
        subscriberConnection = subscriber
        for connection in [command, subscriber] {
            if let problem = connection.open(target, on: loop) {
                fail("cannot connect the \(connection.role.rawValue) connection: \(problem)")
                return
            }
        }
    }

    /// One connection finished its handshake; with both finished, the link is connected.
    func connectionIsReady(_ connection: RedisConnection) {
        guard isCurrent(connection), !connection.isReady else { return }
        connection.isReady = true
        guard state == .connecting, commandConnection?.isReady == true, subscriberConnection?.isReady == true else {
            return
        }
        watchdog.cancel()
        state = .connected
        failures = 0
        if hasConnected { reconnects += 1 }
        hasConnected = true
        onStateChange?(.connected)
    }

    /// A current connection failed or dropped: the link goes down (outstanding commands failed with `reason`) and
    /// a reconnection is scheduled.
    func connection(_ connection: RedisConnection, didFail reason: String) {
        guard isCurrent(connection) else { return }
        fail("\(connection.role.rawValue) connection: \(reason)")
    }

    /// Takes the link down for `reason`, unless it is down already: frees both connections, schedules the next
    /// attempt, reports `disconnected`, then fails the outstanding commands.
    func fail(_ reason: String) {
        guard !stopped, state != .disconnected else { return }
        lastFailure = reason
        let failed = outstanding.drain()
        retireConnections()
        watchdog.cancel()
        state = .disconnected
        failures += 1
        let delay = delays.milliseconds(afterFailures: failures, using: &random)
        reconnectTimer.schedule(afterMilliseconds: delay) { [weak self] in self?.connect() }
        onStateChange?(.disconnected)
        let failure = RedisReply.error(RedisReply.disconnected(reason))
        for handler in failed { handler(failure) }
    }

    /// True for the link's current connections (not for retired ones still being freed).
    func isCurrent(_ connection: RedisConnection) -> Bool {
        connection === commandConnection || connection === subscriberConnection
    }

    /// Runs `body` as a hiredis callback of this link: frees requested meanwhile wait for the next loop turn.
    func hiredisCallback(_ body: (RedisLink) -> Void) {
        callbackDepth += 1
        defer { callbackDepth -= 1 }
        body(self)
    }

    /// Runs `body` on the next loop turn, outside every hiredis callback (at once if the loop is closing).
    func onNextTurn(_ body: @escaping () -> Void) {
        guard !closed else { return body() }
        nextTurn.append(body)
        guard nextTurnTimer == nil else { return }
        let timer = LoopTimer(loop: loop)
        nextTurnTimer = timer
        timer.schedule(afterMilliseconds: 0) { [self] in runNextTurn() }
        updateRegistration()
    }

    /// Detaches both connections from the link and frees them (now, or on the next turn inside a callback).
    private func retireConnections() {
        for connection in [commandConnection, subscriberConnection].compactMap(\.self) {
            connection.link = nil
            if callbackDepth == 0 {
                connection.free()
            } else {
                onNextTurn { connection.free() }
            }
        }
        commandConnection = nil
        subscriberConnection = nil
    }

    private func runNextTurn() {
        nextTurnTimer?.close()
        nextTurnTimer = nil
        while !nextTurn.isEmpty {
            let bodies = nextTurn
            nextTurn = []
            for body in bodies { body() }
        }
        updateRegistration()
    }

    /// Host name lookups not finished yet (tests check that none is left behind).
    var lookupsInFlight: Int { lookups.count }

    /// The loop holds the link while it has work: started and not stopped, deferred work, or lookups running.
    private func updateRegistration() {
        let needed = (!closed && ((started && !stopped) || !nextTurn.isEmpty)) || !lookups.isEmpty
        guard needed != registered else { return }
        registered = needed
        if needed {
            loop.register(self)
        } else {
            loop.unregister(self)
        }
    }

    /// The loop is closing: stop, run deferred work now (frees, failure replies), close the timers.
    func closeFromLoop() {
        stop()
        closed = true
        runNextTurn()
        watchdog.close()
        reconnectTimer.close()
    }
}
