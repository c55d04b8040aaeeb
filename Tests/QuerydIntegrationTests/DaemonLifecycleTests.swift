// Start-up and shutdown promises: SIGTERM answers in-flight requests with -32003 and unlinks the
// socket; a live socket is never stolen; a stale one is replaced; files and symlinks are refused.

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Daemon lifecycle")
struct DaemonLifecycleTests {
    @Test("SIGTERM with a query.fetch in flight: -32003 {reason: shutdown, retryable}, socket unlinked, exit 0")
    func sigtermAnswersInFlightRequests() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["k"])
        let caller = try daemon.connect()
        let callID = try caller.sendRequest("query.fetch", ["key": ["k"]])
        _ = try fetcher.expectFetch(fetcher: fid, key: ["k"])
        let status = try daemon.stop()
        #expect(status == .exited(0), "\(daemon.logTail())")
        expectJSON(
            try caller.awaitResponse(id: callID),
            [
                "jsonrpc": "2.0", "id": callID,
                "error": [
                    "code": -32003, "message": "Cancelled by the server",
                    "data": ["reason": "shutdown", "retryable": true],
                ],
            ])
        try caller.expectEndOfStream()
        #expect(access(daemon.socketPath, F_OK) != 0, "the socket file must be removed at shutdown")
    }

    @Test("a second daemon on a live socket refuses to start and the first keeps serving")
    func secondDaemonRefuses() throws {
        let first = try DaemonProcess()
        let outcome = try DaemonProcess.run(arguments: ["serve", "--socket", first.socketPath])
        #expect(outcome.status != .exited(0), "second daemon: \(outcome.status)\n\(outcome.output)")
        #expect(!outcome.output.isEmpty, "the refusal must say why on stderr")
        let client = try first.connect()
        try client.expectHealthy()
        #expect(try first.stop() == .exited(0))
    }

    @Test("a stale socket file is replaced")
    func staleSocketIsReplaced() throws {
        let path = DaemonProcess.temporarySocketPath()
        try makeStaleSocket(at: path)
        defer { unlink(path) }
        #expect(!UnixSocket.canConnect(path: path))
        let daemon = try DaemonProcess(socketPath: path)
        let client = try daemon.connect()
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test("a regular file or a symlink at the socket path is refused", arguments: ["file", "symlink"])
    func nonSocketPathIsRefused(kind: String) throws {
        let path = DaemonProcess.temporarySocketPath()
        let target = path + ".target"
        defer {
            unlink(path)
            unlink(target)
        }
        let fd = open(kind == "file" ? path : target, O_WRONLY | O_CREAT, 0o600)
        #expect(fd >= 0)
        close(fd)
        if kind == "symlink" { #expect(symlink(target, path) == 0) }
        let outcome = try DaemonProcess.run(arguments: ["serve", "--socket", path])
        #expect(outcome.status == .exited(1), "\(outcome.status)\n\(outcome.output)")
        var info = stat()
        #expect(lstat(path, &info) == 0, "the existing \(kind) must be left alone")
    }

    /// Binds a Unix socket at `path` and closes it without listening: the file stays, nobody answers.
    private func makeStaleSocket(at path: String) throws {
        close(try UnixSocket.bind(path: path))
    }
}
