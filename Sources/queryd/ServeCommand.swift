// `queryd serve`: parse flags, claim the socket path safely, and run the daemon until a signal.

import ArgumentParser
import Glibc
import Logging
import QuerydServer
import QuerydTransport

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the daemon on a Unix socket.")

    @Option(help: "Socket path (default: $QUERYD_SOCKET, else $XDG_RUNTIME_DIR/queryd.sock, else /tmp/queryd-<uid>.sock).")
    var socket: String?

    @Option(help: "Longest message line accepted, in bytes; a longer one is refused and its connection closed.")
    var maxMessageBytes = 16 * 1024 * 1024

    @Option(help: "Most connections served at once.")
    var maxConnections = 1024

    @Option(help: "Deepest JSON nesting accepted in a message.")
    var maxDepth = 128

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Flag(help: "Run every timer on a virtual clock moved only by clock.advance (for tests).")
    var manualClock = false

    @Flag(help: "Serve the JSON-RPC specification's example methods as test.* (for conformance tests).")
    var testMethods = false

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        guard maxMessageBytes > 0, maxConnections > 0, maxDepth > 0 else {
            throw ValidationError("limits must be positive")
        }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "queryd")
        let path = SocketPath.resolve(explicit: socket, environment: Self.environment())
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
        configuration.maxConnections = maxConnections
        configuration.maxDepth = maxDepth
        configuration.manualClock = manualClock
        configuration.testMethods = testMethods
        let daemon = try Daemon(configuration: configuration, socketPath: path, logger: logger)
        daemon.run()
    }

    private static func environment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["QUERYD_SOCKET", "XDG_RUNTIME_DIR"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}

/// A reason not to start, printed to stderr; the process exits with status 1.
struct Refusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
