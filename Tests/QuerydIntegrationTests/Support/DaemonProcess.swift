// Starts the real `queryd serve` binary on a private socket, captures its stderr, and stops it.

import Glibc
import QuerydTestSupport

/// How a daemon process ended.
enum ExitStatus: Equatable, CustomStringConvertible {
    /// The process called exit with this code.
    case exited(Int32)
    /// The process was killed by this signal.
    case signaled(Int32)

    init(waitStatus status: Int32) {
        if status & 0x7f == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signaled(status & 0x7f)
        }
    }

    var description: String {
        switch self {
        case .exited(let code): return "exit \(code)"
        case .signaled(let signal): return "signal \(signal)"
        }
    }
}

/// One `queryd serve` process on a temporary socket. The process is killed when this object is
/// released without `stop()`, so a failing test never leaks a daemon.
final class DaemonProcess {
    /// The Unix socket path the daemon listens on.
    let socketPath: String
    /// The file that receives the daemon's stdout and stderr.
    let logPath: String
    /// The process id.
    let pid: pid_t
    private var exitStatus: ExitStatus?

    /// A fresh, short socket path under /tmp (Unix socket paths are limited to 107 bytes).
    static func temporarySocketPath() -> String {
        "/tmp/qd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    }

    /// Starts `queryd serve --socket <socketPath> <flags>` and waits (10 ms polls, at most 10 s)
    /// until the socket accepts a connection.
    /// With `openFileLimit`, the daemon runs under `sh -c 'ulimit -n <limit>; exec queryd …'`; with
    /// `strayDescriptors`, it starts with that many descriptors left open from 3 up. `environment`
    /// is added to the daemon's environment only (through `env`), never to the test process's.
    init(
        flags: [String] = [], socketPath: String = DaemonProcess.temporarySocketPath(), openFileLimit: Int? = nil,
        strayDescriptors: Int = 0, environment: [String: String] = [:]
    ) throws {
        self.socketPath = socketPath
        self.logPath = socketPath.replacingSuffix(".sock", with: ".log")
        let setEnvironment = environment.isEmpty ? [] : ["/usr/bin/env"] + environment.map { "\($0.key)=\($0.value)" }
        self.pid = try DaemonProcess.spawn(
            arguments: ["serve", "--socket", socketPath] + flags, logPath: logPath,
            wrapper: setEnvironment
                + (openFileLimit.map { ["/bin/sh", "-c", "ulimit -n \($0) && exec \"$0\" \"$@\""] } ?? []),
            strayDescriptors: strayDescriptors)
        try waitUntilAccepting()
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
        }
        unlink(logPath)
        unlink(socketPath)
    }

    /// Sends SIGTERM and waits up to 5 s for the exit (then SIGKILL); returns how it ended.
    @discardableResult
    func stop() throws -> ExitStatus {
        if let exitStatus { return exitStatus }
        kill(pid, SIGTERM)
        // The daemon drains connections for at most 5 s before it stops anyway; allow that plus margin.
        if let status = waitForExit(seconds: 15) { return status }
        kill(pid, SIGKILL)
        _ = reap(blocking: true)
        throw IntegrationError("daemon ignored SIGTERM for 15 s and was killed\n\(logTail())")
    }

    /// Kills the daemon with SIGKILL (no cleanup on its side) and reaps it.
    func kill9() {
        guard exitStatus == nil else { return }
        kill(pid, SIGKILL)
        _ = reap(blocking: true)
    }

    /// Waits for the process to exit by itself, polling every 10 ms.
    func waitForExit(seconds: Double) -> ExitStatus? {
        let deadline = Clock.now + seconds
        while true {
            if let status = reap(blocking: false) { return status }
            if Clock.now >= deadline { return nil }
            usleep(10_000)
        }
    }

    /// Whether the process is still running.
    var isRunning: Bool { reap(blocking: false) == nil }

    /// The last `maxBytes` bytes of the daemon's stdout/stderr, for failure messages.
    func logTail(maxBytes: Int = 4000) -> String {
        DaemonProcess.readTail(of: logPath, maxBytes: maxBytes)
    }

    /// Opens a new client connection to this daemon.
    func connect() throws -> LineClient {
        do {
            return try LineClient(socketPath: socketPath)
        } catch {
            throw IntegrationError("\(error)\n--- daemon log ---\n\(logTail())")
        }
    }

    private func reap(blocking: Bool) -> ExitStatus? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        guard result == pid else { return nil }
        let ended = ExitStatus(waitStatus: status)
        exitStatus = ended
        return ended
    }

    private func waitUntilAccepting() throws {
        let deadline = Clock.now + 10
        while Clock.now < deadline {
            if let status = reap(blocking: false) {
                throw IntegrationError("daemon exited during startup (\(status))\n\(logTail())")
            }
            if UnixSocket.canConnect(path: socketPath) { return }
            usleep(10_000)
        }
        kill9()
        throw IntegrationError("daemon did not accept on \(socketPath) within 10 s\n\(logTail())")
    }

    /// Runs `queryd <arguments>` to completion (at most `seconds`) and returns its exit status
    /// and combined output; used for start-up refusals.
    static func run(arguments: [String], seconds: Double = 10) throws -> (status: ExitStatus, output: String) {
        let logPath = temporarySocketPath().replacingSuffix(".sock", with: ".out")
        defer { unlink(logPath) }
        let pid = try spawn(arguments: arguments, logPath: logPath)
        let deadline = Clock.now + seconds
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) != pid {
            if Clock.now >= deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw IntegrationError(
                    "queryd \(arguments) did not exit within \(seconds) s\n\(readTail(of: logPath, maxBytes: 4000))")
            }
            usleep(10_000)
        }
        return (ExitStatus(waitStatus: status), readTail(of: logPath, maxBytes: 4000))
    }

    /// Starts `queryd <arguments>`, or `<wrapper> queryd <arguments>` (a wrapper command ending where the
    /// binary's path is its next argument), with stdout and stderr to `logPath`.
    static func spawn(
        arguments: [String], logPath: String, wrapper: [String] = [], strayDescriptors: Int = 0
    ) throws -> pid_t {
        let binary = QuerydBinary.path
        guard access(binary, X_OK) == 0 else {
            throw IntegrationError("queryd binary not found at \(binary) (build it or set QUERYD_BIN)")
        }
        return try ChildProcess.spawn(
            wrapper + [binary] + arguments, output: logPath, errors: logPath, strayDescriptors: strayDescriptors)
    }

    private static func readTail(of path: String, maxBytes: Int) -> String {
        guard let bytes = TestFile.bytes(path) else { return "(no log at \(path))" }
        return String(decoding: bytes.suffix(maxBytes), as: UTF8.self)
    }
}

/// Monotonic wall time in seconds, used only to bound waits.
enum Clock {
    /// Seconds since an arbitrary fixed point.
    static var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

extension String {
    /// This string with `suffix` replaced by `replacement` (or with `replacement` appended).
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self + replacement
    }
}
