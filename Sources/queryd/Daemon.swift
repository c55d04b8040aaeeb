// The running daemon: one event loop, the listener, one bridge per connection between the libuv
// transport and a server session, the single timer armed at the cache's next deadline, and the
// signal handling that drains and stops it all (SIGINT/SIGTERM) or reopens the log (SIGHUP).
// Connections from users other than the daemon's own (and `--allow-uid`) are refused at accept,
// and a connection whose output backs up is no longer read until it drains (backpressure).

import Glibc
import Logging
import QuerydCore
import QuerydJSON
import QuerydRPC
import QuerydServer
import QuerydTransport

/// Owns every long-lived object of `queryd serve`; everything runs on the loop thread.
final class Daemon {
    let loop: EventLoop
    let server: Server
    private var listener: UnixListener?
    private let timer: LoopTimer
    let logger: Logger
    let configuration: ServerConfiguration
    private let access: PeerAccess
    private let log: LogFile
    private var bridges: [Int: ConnectionBridge] = [:]
    /// The bridges whose reading is stopped (backpressure), by connection id.
    private var pausedBridges: [Int: ConnectionBridge] = [:]
    private var stopping = false
    /// `--persist`, once started; in `always` mode it holds output until its writes are durable.
    var persistence: DaemonPersistence?
    /// The bridges holding output until a batch is durable (`--persist-sync always`), by connection id.
    private var holdingBridges: [Int: ConnectionBridge] = [:]
    /// Why the daemon stopped by itself rather than for a signal (the cluster refused it).
    var refusal: String?
    private var acceptErrors = RateLimitedLog()
    private var refusals = RateLimitedLog()

    /// Sets up the loop, the server and the signal handling; nothing is bound until `listen(on:)`,
    /// and a SIGINT or SIGTERM that arrives from here on is a clean shutdown.
    init(configuration: ServerConfiguration, logger: Logger, access: PeerAccess, log: LogFile) throws {
        EventLoop.ignoreSIGPIPE()
        // A parent may have started us with these blocked (threads of test runners do); the
        // daemon must see them to shut down cleanly.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        self.configuration = configuration
        self.logger = logger
        self.access = access
        self.log = log
        loop = try EventLoop()
        let clock: any CacheClock = configuration.manualClock ? ManualClock() : LoopClock(loop: loop)
        server = Server(configuration: configuration, clock: clock, logger: logger)
        timer = LoopTimer(loop: loop)
        loop.onBeforeSleep { [unowned self] in beforeSleep() }
        for signal in [SIGINT, SIGTERM] {
            if let error = loop.onSignal(signal, { [unowned self] in beginShutdown() }) {
                logger.warning("cannot watch signal \(signal): \(error)")
            }
        }
        if let error = loop.onSignal(SIGHUP, { [unowned self] in reopenLog() }) {
            logger.warning("cannot watch signal \(SIGHUP): \(error)")
        }
    }

    /// Binds the socket and starts accepting connections.
    func listen(on socketPath: String) throws {
        let listener = try UnixListener(loop: loop, path: socketPath)
        listener.onAccept = { [unowned self] connection in accept(connection) }
        listener.onError = { [unowned self] error in
            let (allowed, suppressed) = acceptErrors.allow(now: loop.nowMilliseconds)
            guard allowed else { return }
            logger.warning("accept failed: \(error)\(suppressed > 0 ? " (and \(suppressed) more since)" : "")")
        }
        listener.overflowLine = tooManyConnectionsLine
        listener.onOverflow = { [unowned self] error in
            let (allowed, suppressed) = refusals.allow(now: loop.nowMilliseconds)
            guard allowed else { return }
            logger.warning(
                """
                refused a connection: out of file descriptors (\(error))\
                \(suppressed > 0 ? " (\(suppressed) more refusals since the last one logged)" : "")
                """)
        }
        self.listener = listener
        logger.info("queryd listening on \(socketPath)")
    }

    /// Starts `--persist` (see `DaemonPersistence`); call before `listen(on:)`.
    func startPersistence(_ settings: PersistenceSettings, epoch: String) throws {
        let persistence = try DaemonPersistence(
            settings: settings, cache: server.cache, loop: loop, maxDepth: configuration.maxDepth,
            epoch: epoch, logger: logger)
        persistence.onDurable = { [unowned self] sequence in releaseHeldOutput(upTo: sequence) }
        server.dataObserver = persistence.writer
        self.persistence = persistence
    }

    /// `always` mode: the batch the output produced now must wait for, if any.
    fileprivate var outputTicket: UInt64? { persistence?.outputTicket }

    fileprivate func holdsOutput(_ bridge: ConnectionBridge) {
        holdingBridges[bridge.connection.id] = bridge
    }

    private func releaseHeldOutput(upTo sequence: UInt64) {
        for (id, bridge) in holdingBridges where bridge.releaseHeldOutput(upTo: sequence) {
            holdingBridges[id] = nil
        }
    }

    /// Serves until SIGINT or SIGTERM, then returns once connections are drained.
    func run() {
        loop.run()
        loop.close()
        logger.info("queryd stopped")
    }

    private func accept(_ connection: StreamConnection) {
        guard !stopping else {
            connection.close()
            return
        }
        guard let peer = connection.peer, access.admits(peer.uid) else {
            refuse(connection)
            return
        }
        if bridges.count >= configuration.maxConnections {
            connection.write(tooManyConnectionsLine)
            connection.closeAfterWrites()
            let (allowed, suppressed) = refusals.allow(now: loop.nowMilliseconds)
            if allowed {
                logger.warning(
                    """
                    refused a connection: \(configuration.maxConnections) connections already open\
                    \(suppressed > 0 ? " (\(suppressed) more refusals since the last one logged)" : "")
                    """)
            }
            return
        }
        let bridge = ConnectionBridge(connection: connection, daemon: self)
        bridge.session = server.openSession(transport: bridge)
        bridge.onClose = { [unowned self] in
            bridges[connection.id] = nil
            pausedBridges[connection.id] = nil
            holdingBridges[connection.id] = nil
        }
        bridges[connection.id] = bridge
        logger.info("connection \(connection.id) opened by pid \(peer.pid) uid \(peer.uid) gid \(peer.gid)")
        connection.startReading()
    }

    /// The -32006 line (with its newline) of a connection refused for the connection limit.
    private var tooManyConnectionsLine: [UInt8] {
        var line: [UInt8] = []
        var error = RPCError.limitExceeded("max-connections", max: configuration.maxConnections)
        error.message = "Too many connections"
        RPCWriter.error(id: nil, error: error, to: &line)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Writes one -32008 line to a peer whose uid is not admitted, logs it, and closes.
    private func refuse(_ connection: StreamConnection) {
        let uid: JSONValue = connection.peer.map { .number(JSONNumber(Int($0.uid))) } ?? .null
        var line: [UInt8] = []
        let error = RPCError(
            .permissionDenied,
            data: ["uid": uid, "reason": "this daemon admits only its own uid and those given with --allow-uid"])
        RPCWriter.error(id: nil, error: error, to: &line)
        line.append(UInt8(ascii: "\n"))
        connection.write(line)
        connection.closeAfterWrites()
        let who = connection.peer.map { "pid \($0.pid) uid \($0.uid) gid \($0.gid)" } ?? "a peer without credentials"
        logger.warning("refused a connection from \(who): uid not allowed")
    }

    /// SIGHUP: reopens `--log-file` (after rotation); without one there is nothing to reopen.
    private func reopenLog() {
        guard let path = log.path else {
            logger.info("SIGHUP: logging to stderr, nothing to reopen")
            return
        }
        if let error = log.reopen() {
            logger.error("SIGHUP: cannot reopen log file \(path): \(error); still writing to the old one")
        } else {
            logger.info("SIGHUP: reopened log file \(path)")
        }
    }

    /// Stops reading from a connection whose output backs up, and reads again once it drained.
    /// Called for every session the server flushed (only those can have more output than before)
    /// and, from `applyBackpressure`, for the paused ones (only theirs is waited for to drain).
    fileprivate func checkBackpressure(_ bridge: ConnectionBridge, backlog: Int) {
        let pause = configuration.readPauseBytes
        if !bridge.isPaused, backlog > pause {
            bridge.isPaused = true
            pausedBridges[bridge.connection.id] = bridge
            bridge.connection.stopReading()
            logger.debug("connection \(bridge.connection.id): \(backlog) bytes unread by the peer; pausing input")
        } else if bridge.isPaused, backlog <= pause / 4 {
            bridge.isPaused = false
            pausedBridges[bridge.connection.id] = nil
            bridge.connection.startReading()
        }
    }

    /// Resumes reading from paused connections whose output drained (the flushed ones were checked
    /// by `checkBackpressure` as the server flushed them).
    private func applyBackpressure() {
        guard !pausedBridges.isEmpty else { return }
        for bridge in Array(pausedBridges.values) {
            guard let session = bridge.session else { continue }
            checkBackpressure(bridge, backlog: session.pendingOutputBytes)
        }
    }

    /// Runs due timers, writes everything queued, runs a slice of the engine's sweeps and writes
    /// what it queued, and arms the timer for the next deadline (or for now, while a sweep is pending).
    private func beforeSleep() {
        if !configuration.manualClock { server.runDueTimers() }
        if server.hasPendingSweeps {
            // What this turn's reads produced goes out before the slice: a reply waits for at most
            // the slice under way when its request came, not for the next one too.
            server.flush()
            server.continueSweeps()
        }
        server.flush()
        persistence?.endOfTurn()
        applyBackpressure()
        if stopping {
            if bridges.isEmpty { loop.stop() }
            return
        }
        if server.hasPendingSweeps {
            // The next slice runs in the next turn: the loop polls without sleeping.
            timer.schedule(afterMilliseconds: 0) { [unowned self] in
                if !configuration.manualClock { server.runDueTimers() }
            }
            return
        }
        guard !configuration.manualClock, let deadline = server.nextDeadline else {
            timer.cancel()
            return
        }
        let delay = max(0, deadline - server.cache.clock.now)
        timer.schedule(afterMilliseconds: UInt64(delay)) { [unowned self] in
            server.runDueTimers()
        }
    }

    /// Stops accepting, answers what is in flight with -32003, and stops once connections close
    /// (or after five seconds, whatever a peer does).
    func beginShutdown() {
        guard !stopping else { return }
        stopping = true
        logger.info("shutting down")
        server.cluster?.stop()
        listener?.close(unlinkSocket: true)
        server.shutdown()
        timer.schedule(afterMilliseconds: 5000) { [unowned self] in
            logger.warning("connections did not close within 5 s; stopping anyway")
            loop.stop()
        }
    }
}

/// Connects one libuv connection to one server session.
final class ConnectionBridge: StreamConnectionDelegate, SessionTransport {
    let connection: StreamConnection
    var session: Session?
    var onClose: (() -> Void)?
    /// Reading is stopped until the peer takes its output.
    var isPaused = false
    /// Output waiting for a persistence batch to be durable (`--persist-sync always`), in order,
    /// each with the sequence number of the batch it waits for.
    private var held: [(ticket: UInt64, bytes: [UInt8])] = []
    private var heldBytes = 0
    private var closeWhenReleased = false
    /// `--persist-sync always`: output may have to wait (fixed at the start, before any connection).
    private let waitsForDurability: Bool
    /// Decides backpressure; owns this bridge (in its table of connections) until the close.
    private unowned let daemon: Daemon

    init(connection: StreamConnection, daemon: Daemon) {
        self.connection = connection
        self.daemon = daemon
        waitsForDurability = daemon.persistence?.holdsOutput ?? false
        connection.delegate = self
    }

    func connection(_ connection: StreamConnection, didRead bytes: UnsafeRawBufferPointer) {
        session?.receive(bytes)
    }

    func connectionDidReceiveEOF(_ connection: StreamConnection) {
        session?.receiveEOF()
        // A peer that closed its socket (not only its write side) reads nothing more: it is gone,
        // so its waits are withdrawn at once instead of being answered (see StreamConnection+Hangup).
        connection.watchForHangup(intervalMilliseconds: 100) { connection.close() }
    }

    func connectionDidClose(_ connection: StreamConnection) {
        session?.transportClosed()
        session = nil
        onClose?()
    }

    func write(_ bytes: [UInt8]) {
        // Output waits for the batch holding the writes made so far, and always behind held output.
        if waitsForDurability, let ticket = daemon.outputTicket ?? held.last?.ticket {
            held.append((ticket, bytes))
            heldBytes += bytes.count
            daemon.holdsOutput(self)
            return
        }
        connection.write(bytes)
    }

    /// Writes the held output whose batch is durable; returns whether nothing is held any more.
    func releaseHeldOutput(upTo sequence: UInt64) -> Bool {
        var released = 0
        while released < held.count, held[released].ticket <= sequence {
            connection.write(held[released].bytes)
            heldBytes -= held[released].bytes.count
            released += 1
        }
        held.removeFirst(released)
        if held.isEmpty, closeWhenReleased { connection.closeAfterWrites() }
        return held.isEmpty
    }

    func closeAfterWrites() {
        if held.isEmpty {
            connection.closeAfterWrites()
        } else {
            closeWhenReleased = true
        }
    }

    var queuedWriteBytes: Int { connection.isClosed ? 0 : connection.writeQueueSize + heldBytes }

    func didFlush(pendingOutputBytes: Int) {
        daemon.checkBackpressure(self, backlog: pendingOutputBytes)
    }

    func abort() {
        connection.close()
    }

    func abort(finalLine line: [UInt8]) {
        connection.closeAfterFinalLine(line, graceMilliseconds: 1000)
    }
}

/// Which peers may connect: the daemon's own uid and those given with `--allow-uid`.
struct PeerAccess {
    let owner: UInt32
    let allowed: Set<UInt32>

    func admits(_ uid: UInt32) -> Bool { uid == owner || allowed.contains(uid) }
}
