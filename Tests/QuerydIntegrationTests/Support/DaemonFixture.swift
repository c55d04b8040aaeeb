// Runs a test body against a fresh daemon and checks that it then stops cleanly.

import QuerydJSON
import Testing

/// Starts a daemon with `flags`, opens one connection, runs `body`, then stops the daemon and
/// records an issue unless it exits with status 0.
func withDaemon(
    _ flags: [String] = ["--test-methods"], sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (DaemonProcess, LineClient) throws -> Void
) throws {
    let daemon = try DaemonProcess(flags: flags)
    let client = try daemon.connect()
    do {
        try body(daemon, client)
    } catch {
        throw IntegrationError("\(error)\n--- daemon log ---\n\(daemon.logTail())")
    }
    client.close()
    let status = try daemon.stop()
    #expect(status == .exited(0), "daemon stop: \(status)\n\(daemon.logTail())", sourceLocation: sourceLocation)
}

extension LineClient {
    /// Sends one raw line and returns the next line parsed as JSON.
    func exchange(_ line: String) throws -> JSONValue {
        try send(line)
        return try readJSON()
    }
}
