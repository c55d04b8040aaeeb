// Starts the real `queryd serve` binary on a private socket for the client tests, and stops or restarts it.

import Foundation
import Glibc

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

    /// The binary: `$QUERYD_BIN`, else `<package root>/.build/debug/queryd`.
    static var binaryPath: String {
        if let override = ProcessInfo.processInfo.environment["QUERYD_BIN"], !override.isEmpty { return override }
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(6)  // clients/swift/Tests/QuerydClientTests/Support/TestDaemon.swift
        return parts.joined(separator: "/") + "/.build/debug/queryd"
    }

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
        let binary = TestDaemon.binaryPath
        guard access(binary, X_OK) == 0 else {
            throw HarnessError(description: "no queryd at \(binary); set QUERYD_BIN")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, socketPath + ".log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = [binary, "serve", "--socket", socketPath, "--log-level", "warning"] + flags
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = argv.withUnsafeBufferPointer {
            posix_spawn(&pid, binary, &actions, &attributes, $0.baseAddress!, environ)
        }
        guard result == 0 else { throw HarnessError(description: "posix_spawn failed: \(result)") }
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
            if canConnect() { return }
            usleep(5_000)
        }
        throw HarnessError(description: "queryd did not accept on \(socketPath) within 10 s")
    }

    private func canConnect() -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = FakePeer.address(socketPath)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
