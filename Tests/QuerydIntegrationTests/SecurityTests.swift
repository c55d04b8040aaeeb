// Access control and signals: the socket is 0600, a socket directory others can write to is
// refused, a peer of another uid gets one -32008 line and is closed unless `--allow-uid` admits
// it (peer credentials are logged), and SIGHUP reopens `--log-file` after rotation.
// The other-uid tests run the daemon as uid 65534 through setpriv, so they need root.

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Security")
struct SecurityTests {
    static let otherUID: UInt32 = 65534

    /// A directory owned by `uid`, mode 0700, for a daemon's socket and log.
    static func privateDirectory(owner uid: UInt32) throws -> String {
        var template = Array("/tmp/qd-sec-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw IntegrationError.system("mkdtemp", errno: errno) }
        let path = String(cString: made)
        chown(path, uid, uid)
        return path
    }

    /// Starts `queryd serve` as uid 65534 via setpriv; returns its pid once the socket accepts.
    static func spawnAsOtherUser(socket: String, log: String, flags: [String]) throws -> pid_t {
        let arguments =
            [
                "/usr/bin/setpriv", "--reuid=\(otherUID)", "--regid=\(otherUID)", "--clear-groups",
                QuerydBinary.path,
                "serve", "--socket", socket, "--log-file", log,
            ] + flags
        let pid = try ChildProcess.spawn(arguments)
        let deadline = Clock.now + 10
        while !UnixSocket.canConnect(path: socket) {
            guard Clock.now < deadline else { throw IntegrationError("the daemon did not start as uid \(otherUID)") }
            usleep(10_000)
        }
        return pid
    }

    static func stop(_ pid: pid_t) -> Int32 {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }

    @Test func theSocketIsPrivateToItsOwner() throws {
        let daemon = try DaemonProcess()
        var info = stat()
        #expect(lstat(daemon.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(info.st_uid == getuid())
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aSocketDirectoryOthersCanWriteIsRefused() throws {
        let directory = try Self.privateDirectory(owner: getuid())
        defer { rmdir(directory) }
        chmod(directory, 0o777)
        let outcome = try DaemonProcess.run(arguments: ["serve", "--socket", directory + "/q.sock"])
        #expect(outcome.status == .exited(1))
        #expect(outcome.output.contains("is writable by other users"), "\(outcome.output)")
    }

    @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0))
    func aPeerOfAnotherUIDIsRefusedWithOneLine() throws {
        let directory = try Self.privateDirectory(owner: Self.otherUID)
        let socket = directory + "/q.sock"
        let log = directory + "/queryd.log"
        defer {
            unlink(log)
            rmdir(directory)
        }
        let pid = try Self.spawnAsOtherUser(socket: socket, log: log, flags: [])
        let client = try LineClient(socketPath: socket)
        let line = try client.readLine()
        #expect(
            line
                == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32008,"message":"Permission denied","data":"#
                + #"{"reason":"this daemon admits only its own uid and those given with --allow-uid","uid":0}}}"#)
        try client.expectEndOfStream()
        #expect(Self.stop(pid) == 0)
        #expect(TestFile.text(log).contains("refused a connection from pid \(getpid()) uid 0 gid 0: uid not allowed"))
    }

    @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0))
    func allowUIDAdmitsAnotherUserAndLogsItsCredentials() throws {
        let directory = try Self.privateDirectory(owner: Self.otherUID)
        let socket = directory + "/q.sock"
        let log = directory + "/queryd.log"
        defer {
            unlink(log)
            rmdir(directory)
        }
        let pid = try Self.spawnAsOtherUser(socket: socket, log: log, flags: ["--allow-uid", "0"])
        let client = try LineClient(socketPath: socket)
        try client.expectHealthy()
        client.close()
        #expect(Self.stop(pid) == 0)
        #expect(TestFile.text(log).contains("opened by pid \(getpid()) uid 0 gid 0"))
    }

    @Test func sighupReopensTheLogFile() throws {
        let directory = try Self.privateDirectory(owner: getuid())
        let log = directory + "/queryd.log"
        defer {
            unlink(log)
            unlink(log + ".1")
            rmdir(directory)
        }
        let daemon = try DaemonProcess(flags: ["--log-file", log])
        let first = try daemon.connect()
        try first.expectHealthy()
        // Rotate: the daemon keeps writing to the renamed file until SIGHUP.
        #expect(rename(log, log + ".1") == 0)
        kill(daemon.pid, SIGHUP)
        let deadline = Clock.now + 5
        while access(log, F_OK) != 0 && Clock.now < deadline { usleep(10_000) }
        let second = try daemon.connect()
        try second.expectHealthy()
        #expect(daemon.isRunning)
        #expect(try daemon.stop() == .exited(0))
        let rotated = TestFile.text(log + ".1")
        let fresh = TestFile.text(log)
        #expect(rotated.contains("queryd listening on"))
        #expect(!rotated.contains("SIGHUP"))
        #expect(fresh.contains("SIGHUP: reopened log file \(log)"))
        #expect(fresh.contains("shutting down"))
    }
}
