// The running daemon: one event loop, the listener, one bridge per connection between the libuv
// transport and a server session, the single timer armed at the cache's next deadline, and the
// signal handling that drains and stops it all.

import Glibc
import Logging
import QuerydCore
import QuerydJSON
import QuerydRPC
import QuerydServer
import QuerydTransport

/// Owns every long-lived object of `queryd serve`; everything runs on the loop thread.
final class Daemon {
    private let loop: EventLoop
    private let server: Server
    private let listener: UnixListener
    private let timer: LoopTimer
    private let logger: Logger
    private let configuration: ServerConfiguration
    private var bridges: [Int: ConnectionBridge] = [:]
    private var stopping = false

    init(configuration: ServerConfiguration, socketPath: String, logger: Logger) throws {
        EventLoop.ignoreSIGPIPE()
        // A parent may have started us with these blocked (threads of test runners do); the
        // daemon must see them to shut down cleanly.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        self.configuration = configuration
        self.logger = logger
        loop = try EventLoop()
        let clock: any CacheClock = configuration.manualClock ? ManualClock() : LoopClock(loop: loop)
        server = Server(configuration: configuration, clock: clock, logger: logger)
        listener = try UnixListener(loop: loop, path: socketPath)
        timer = LoopTimer(loop: loop)
        listener.onAccept = { [unowned self] connection in accept(connection) }
        listener.onError = { [logger] error in logger.warning("accept failed: \(error)") }
        loop.onBeforeSleep { [unowned self] in beforeSleep() }
        for signal in [SIGINT, SIGTERM] {
            if let error = loop.onSignal(signal, { [unowned self] in beginShutdown() }) {
                logger.warning("cannot watch signal \(signal): \(error)")
            }
        }
        logger.info("queryd listening on \(socketPath)")
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
        if bridges.count >= configuration.maxConnections {
            var line: [UInt8] = []
            let error = RPCError(
                .limitExceeded, "Too many connections",
                data: ["limit": "max-connections", "max": .number(JSONNumber(configuration.maxConnections))])
            RPCWriter.error(id: nil, error: error, to: &line)
            line.append(UInt8(ascii: "\n"))
            connection.write(line)
            connection.closeAfterWrites()
            logger.warning("refused a connection: \(configuration.maxConnections) connections already open")
            return
        }
        let bridge = ConnectionBridge(connection: connection)
        bridge.session = server.openSession(transport: bridge)
        bridge.onClose = { [unowned self] in bridges[connection.id] = nil }
        bridges[connection.id] = bridge
        if let peer = connection.peer {
            logger.debug("connection \(connection.id) from pid \(peer.pid) uid \(peer.uid) gid \(peer.gid)")
        }
        connection.startReading()
    }

    /// Runs due timers, writes everything queued, and arms the timer for the next deadline.
    private func beforeSleep() {
        if !configuration.manualClock { server.runDueTimers() }
        server.flush()
        if stopping {
            if bridges.isEmpty { loop.stop() }
            return
        }
        guard !configuration.manualClock, let deadline = server.nextDeadline else {
            timer.cancel()
            return
        }
        let delay = max(0, deadline - server.scheduler.clock.now)
        timer.schedule(afterMilliseconds: UInt64(delay)) { [unowned self] in
            server.runDueTimers()
        }
    }

    /// Stops accepting, answers what is in flight with -32003, and stops once connections close
    /// (or after five seconds, whatever a peer does).
    private func beginShutdown() {
        guard !stopping else { return }
        stopping = true
        logger.info("shutting down")
        listener.close(unlinkSocket: true)
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

    init(connection: StreamConnection) {
        self.connection = connection
        connection.delegate = self
    }

    func connection(_ connection: StreamConnection, didRead bytes: UnsafeRawBufferPointer) {
        session?.receive(bytes)
    }

    func connectionDidReceiveEOF(_ connection: StreamConnection) {
        session?.receiveEOF()
    }

    func connectionDidClose(_ connection: StreamConnection) {
        session?.transportClosed()
        session = nil
        onClose?()
    }

    func write(_ bytes: [UInt8]) {
        connection.write(bytes)
    }

    func closeAfterWrites() {
        connection.closeAfterWrites()
    }
}
