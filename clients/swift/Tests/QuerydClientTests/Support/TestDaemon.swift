// Starts the real `queryd serve` binary on a private socket for the client tests, and stops or restarts it.

import Foundation
import Glibc
import QuerydTestSupport

/// A failure of the test harness itself.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// One `queryd serve` process. Killed on release if still running, so a failing test leaks no daemon.
final class TestDaemon {
    /// The socket path (kept across ``restart()``).
    let socketPath: String
    private let flags: [String]
    private var pid: pid_t = 0
    private var running = false

    /// Starts a daemon with `flags` on a fresh socket and waits until it accepts connections.
    init(flags: [String] = []) throws {
        socketPath = "/tmp/qdc-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        self.flags = flags
        try start()
    }

    deinit {
        if running {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        unlink(socketPath)
        unlink(socketPath + ".log")
    }

    /// Stops the daemon with SIGTERM and waits for it to exit (SIGKILL after 5 s).
    func stop() {
        guard running else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(5)
        while waitpid(pid, &status, WNOHANG) != pid {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(5_000)
        }
        running = false
    }

    /// Starts the daemon again on the same socket path.
    func restart() throws {
        stop()
        try start()
    }

    private func start() throws {
        let binary = QuerydBinary.path
        guard access(binary, X_OK) == 0 else {
            throw HarnessError(description: "no queryd at \(binary); set QUERYD_BIN")
        }
        let arguments = [binary, "serve", "--socket", socketPath, "--log-level", "warning"] + flags
        let log = socketPath + ".log"
        pid = try ChildProcess.spawn(arguments, output: log, errors: log, appending: true)
        running = true
        try waitUntilAccepting()
    }

    private func waitUntilAccepting() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                running = false
                throw HarnessError(description: "queryd exited at start-up (status \(status))")
            }
            if UnixSocket.canConnect(path: socketPath) { return }
            usleep(5_000)
        }
        throw HarnessError(description: "queryd did not accept on \(socketPath) within 10 s")
    }
}
