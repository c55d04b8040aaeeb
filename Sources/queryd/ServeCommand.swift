// `queryd serve`: parse flags, claim the socket path safely, and run the daemon until a signal.

import ArgumentParser
import Glibc
import Logging
import QuerydJSON
import QuerydServer
import QuerydTransport

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the daemon on a Unix socket.")

    @Option(help: socketOptionHelp)
    var socket: String?

    @Option(help: "Longest message line accepted, in bytes; a longer one is refused and its connection closed.")
    var maxMessageBytes = 16 * 1024 * 1024

    @Option(help: "Most connections served at once.")
    var maxConnections = 1024

    @Option(
        help: "Deepest JSON nesting accepted in a message (lowered at start to what the stack allows; see ulimit -s).")
    var maxDepth = 128

    @Option(help: "Subscriptions one connection may hold at once.")
    var maxSubscriptionsPerConnection = 10_000

    @Option(help: "Fetcher and mutator registrations one connection may hold at once.")
    var maxRegistrationsPerConnection = 1_000

    @Option(help: "Requests of one connection that may wait for an answer at once.")
    var maxPendingRequestsPerConnection = 10_000

    @Option(help: "Output bytes a connection may leave unread; past it the connection is closed.")
    var maxOutboundBytes = 64 * 1024 * 1024

    @Option(help: "Most members in one batch; a larger batch is refused whole.")
    var maxBatch = 1_000

    @Option(
        name: .customLong("allow-uid"),
        help: "Also admit connections from this user id (repeatable); by default only the daemon's own uid.")
    var allowUIDs: [UInt32] = []

    @Option(help: "Append logs to this file instead of stderr; SIGHUP reopens it (for log rotation).")
    var logFile: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Flag(help: "Run every timer on a virtual clock moved only by clock.advance (for tests).")
    var manualClock = false

    @Flag(help: "Serve the JSON-RPC specification's example methods as test.* (for conformance tests).")
    var testMethods = false

    @Option(help: "Keep successful query data in this SQLite file (WAL) and restore it, stale, at start.")
    var persist: String?

    @Option(help: "Restore only persisted data at most this many milliseconds old.")
    var persistMaxAge: Int64 = 86_400_000

    @Option(help: "Discard persisted data written under a different value of this string (e.g. an app version).")
    var persistBuster = ""

    @Option(help: "Write changed queries to the --persist file at most this many milliseconds after they change.")
    var persistFlushMs = 1000

    @Option(
        help: """
            Milliseconds a fetch or mutate attempt may go unanswered before it fails with -32004 and \
            its fetcher or mutator is sent $/cancelRequest (a query's or mutation's options.timeout \
            wins); 0 for no limit.
            """)
    var attemptTimeoutMs: Int64 = 60_000

    @Option(
        help: """
            When a change is durable: interval (written within --persist-flush-ms) or always (a write \
            is answered once it is synced to the --persist file).
            """)
    var persistSync = PersistSync.interval

    @Flag(help: "Move a damaged --persist file (and its -wal, -shm) aside with a timestamped name and start empty.")
    var persistRecover = false

    @Option(
        help: """
            Join a cluster of queryd nodes sharing one cache through this Redis: redis://HOST:PORT[/DB] or \
            unix:///PATH[?db=N]. The password (and ACL user) come from $QUERYD_REDIS_PASSWORD \
            ($QUERYD_REDIS_USER) or --cluster-password-file, never from the command line.
            """)
    var cluster: String?

    @Option(help: "Keeps several clusters apart on one Redis: the prefix of every key and channel.")
    var clusterNamespace = "queryd"

    @Option(help: "This node's id in the cluster (default: host name and pid, as server.hello's node).")
    var nodeId: String?

    @Option(help: "Read the Redis password from this file (first line; the user from $QUERYD_REDIS_USER).")
    var clusterPasswordFile: String?

    @Option(help: "Milliseconds a fetch lease lasts unless its holder renews it (a dead holder's keys wait this long).")
    var clusterLeaseMs = 5_000

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        let limits = [
            maxMessageBytes, maxConnections, maxDepth, maxSubscriptionsPerConnection, maxRegistrationsPerConnection,
            maxPendingRequestsPerConnection, maxOutboundBytes, maxBatch,
        ]
        guard limits.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("limits must be positive")
        }
        guard attemptTimeoutMs >= 0 else { throw ValidationError("--attempt-timeout-ms must be 0 or more") }
        guard clusterLeaseMs >= 100 else { throw ValidationError("--cluster-lease-ms must be 100 or more") }
        guard !clusterNamespace.isEmpty, !clusterNamespace.contains(where: { "{}".contains($0) }) else {
            throw ValidationError("--cluster-namespace must be non-empty and without { or }")
        }
    }

    func run() throws {
        AllocatorSettings.applyForServing()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let log = try logFile.map { try LogFile(path: $0) } ?? LogFile()
        LoggingSystem.bootstrap { label in LogFileHandler(label: label, file: log, logLevel: level) }
        let logger = Logger(label: "queryd")
        let path = resolvedSocketPath(explicit: socket)
        if let problem = Self.directoryProblem(socketPath: path) { throw Refusal(problem) }
        switch SocketProbe.probe(path: path) {
        case .absent: break
        case .stale:
            logger.notice("replacing stale socket \(path)")
            unlink(path)
        case .live:
            throw Refusal("another queryd is already serving on \(path)")
        case .symlink, .notASocket:
            throw Refusal("\(path) exists and is not a socket; refusing to replace it")
        }
        var configuration = ServerConfiguration()
        configuration.maxMessageBytes = maxMessageBytes
        configuration.maxConnections = DescriptorBudget.fit(connections: maxConnections, logger: logger)
        configuration.maxDepth = maxDepth
        if let lowered = configuration.clampMaxDepth(toStackBytes: JSONNestingLimit.mainThreadStackBytes()) {
            logger.warning("\(lowered)")
        }
        configuration.maxSubscriptionsPerConnection = maxSubscriptionsPerConnection
        configuration.maxRegistrationsPerConnection = maxRegistrationsPerConnection
        configuration.maxPendingRequestsPerConnection = maxPendingRequestsPerConnection
        configuration.maxOutboundBytes = maxOutboundBytes
        configuration.maxBatch = maxBatch
        configuration.manualClock = manualClock
        configuration.testMethods = testMethods
        configuration.attemptTimeoutMs = attemptTimeoutMs > 0 ? attemptTimeoutMs : nil
        if let nodeId { configuration.node = nodeId }
        let clusterSettings = try clusterSettings(node: configuration.node)
        let persistence = try persistenceSettings()
        // The cache epoch: kept in the --persist file across restarts, else new for this run. Once
        // the server configuration has protocol 2's `epoch` (random by default), it takes part here:
        // `creating: configuration.epoch`, then `if let epoch { configuration.epoch = epoch }`.
        let epoch = persistence.map { DaemonPersistence.keptEpoch(in: $0, creating: Self.freshEpoch()) }
        let daemon = try Daemon(
            configuration: configuration, logger: logger,
            access: PeerAccess(owner: getuid(), allowed: Set(allowUIDs)), log: log)
        // The data is back before the socket accepts: no client sees a half-restored cache.
        if let persistence, let epoch {
            try daemon.startPersistence(persistence, epoch: epoch)
            logger.info("persistence: cache epoch \(epoch)")
        }
        if let clusterSettings { daemon.joinCluster(clusterSettings) }
        try daemon.listen(on: path)
        daemon.run()
        try daemon.persistence?.finish()
        if let refusal = daemon.refusal { throw Refusal(refusal) }
    }

    /// Why the socket's directory is unsafe, if it is: it must be a directory owned by this user
    /// (or by root) that no one else can write to, unless its sticky bit keeps others from
    /// removing or replacing our socket (as in /tmp).
    static func directoryProblem(socketPath: String) -> String? {
        let directory = socketPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let path = directory.isEmpty ? (socketPath.hasPrefix("/") ? "/" : ".") : directory
        var info = stat()
        guard stat(path, &info) == 0 else {
            return "cannot examine the socket directory \(path): \(String(cString: strerror(errno)))"
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(path) is not a directory" }
        if info.st_uid != getuid(), info.st_uid != 0 {
            return "the socket directory \(path) belongs to uid \(info.st_uid), not to this user; use a private one"
        }
        if info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 {
            return "the socket directory \(path) is writable by other users; choose a private directory (mode 0700)"
        }
        return nil
    }

    /// A new random cache epoch: 16 hex digits.
    static func freshEpoch() -> String {
        let value = UInt64.random(in: 0...UInt64.max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// A reason not to start, printed to stderr; the process exits with status 1.
struct Refusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
