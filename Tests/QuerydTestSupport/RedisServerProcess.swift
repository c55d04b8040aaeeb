// A throwaway Debian `redis-server` for tests: its own temporary directory and Unix socket (and optionally a free
// TCP port on 127.0.0.1), no persistence, optional requirepass; stop, kill -9, SIGSTOP/SIGCONT and restart on the
// same socket and port, and a blocking one-command client to look at or poke the server from a test.

public import Glibc

/// One `redis-server` process for a test. The server is killed and its directory removed when this object is
/// released, so a failing test never leaks a server.
public final class RedisServerProcess {
    /// The server's Unix socket (kept across restarts).
    public let socketPath: String
    /// The TCP port on 127.0.0.1, when the server was asked to listen on TCP (kept across restarts).
    public let port: Int?
    /// The password the server requires (`requirepass`), if any.
    public let password: String?
    /// The temporary directory holding the socket and the log.
    public let directory: String
    /// The server's log file.
    public var logPath: String { directory + "/redis.log" }
    /// The running process, nil when stopped or killed.
    public private(set) var pid: pid_t?

    /// `unix://<socket>` (what `RedisEndpoint(parsing:)` reads).
    public var unixURL: String { "unix://\(socketPath)" }
    /// `redis://127.0.0.1:<port>`, when listening on TCP.
    public var tcpURL: String? { port.map { "redis://127.0.0.1:\($0)" } }

    /// Prepares a server in a new temporary directory: with a TCP port chosen free on 127.0.0.1 when `tcp`, with
    /// `requirepass password` when given, and starts it (waiting until it answers) unless `start` is false.
    public init(password: String? = nil, tcp: Bool = false, start: Bool = true) throws(SystemCallError) {
        var template = Array("/tmp/qdr-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemCallError("mkdtemp /tmp/qdr-XXXXXX", errno: errno)
        }
        directory = String(cString: made)
        socketPath = directory + "/redis.sock"
        self.password = password
        self.port = tcp ? try Self.freePort() : nil
        if start { try self.start() }
    }

    deinit {
        kill()
        for file in ["redis.sock", "redis.log", "redis.out"] { unlink(directory + "/" + file) }
        rmdir(directory)
    }

    /// Starts the server and waits (up to 10 s) until it answers on its socket. The server must not be running.
    public func start() throws(SystemCallError) {
        precondition(pid == nil, "RedisServerProcess.start: the server is running")
        var arguments = [
            try Self.serverPath(), "--port", String(port ?? 0), "--bind", "127.0.0.1", "--unixsocket", socketPath,
            "--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", directory,
            "--logfile", logPath,
        ]
        if let password { arguments += ["--requirepass", password] }
        pid = try ChildProcess.spawn(arguments, output: directory + "/redis.out", errors: directory + "/redis.out")
        try waitUntilAnswering()
    }

    /// Stops the server with SIGTERM (resuming it first if paused) and waits for it to exit.
    public func stop() {
        signalAndReap(SIGTERM)
    }

    /// Kills the server with SIGKILL (as a crash would) and waits for it to exit; nothing if not running.
    public func kill() {
        signalAndReap(SIGKILL)
    }

    /// Freezes the server with SIGSTOP: it keeps its sockets (connections are accepted by the kernel) but answers
    /// nothing until `resume()`.
    public func pause() {
        if let pid { Glibc.kill(pid, SIGSTOP) }
    }

    /// Lets a paused server run again (SIGCONT).
    public func resume() {
        if let pid { Glibc.kill(pid, SIGCONT) }
    }

    /// Stops the server if it runs, then starts it again on the same socket and port (with an empty dataset).
    public func restart() throws(SystemCallError) {
        stop()
        try start()
    }

    /// Sends one command over a new blocking connection (authenticating first when the server has a password) and
    /// returns the reply in RESP2 text, e.g. `+OK\r\n` or `$3\r\nbar\r\n`. Waits at most 5 s.
    public func command(_ arguments: [String]) throws(SystemCallError) -> String {
        let fd = try UnixSocket.connect(path: socketPath)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let password {
            let reply = try Self.exchange(fd, ["AUTH", password])
            guard reply.hasPrefix("+OK") else { throw SystemCallError("AUTH: \(reply)", errno: EACCES) }
        }
        return try Self.exchange(fd, arguments)
    }

    /// The command line of a server written in RESP2 (an array of bulk strings).
    public static func encode(_ arguments: [String]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            bytes += Array("$\(argument.utf8.count)\r\n".utf8) + Array(argument.utf8) + Array("\r\n".utf8)
        }
        return bytes
    }

    private func signalAndReap(_ signal: Int32) {
        guard let pid else { return }
        Glibc.kill(pid, signal)
        Glibc.kill(pid, SIGCONT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        self.pid = nil
    }

    private func waitUntilAnswering() throws(SystemCallError) {
        for _ in 0..<1_000 {
            var status: Int32 = 0
            if let pid, waitpid(pid, &status, WNOHANG) == pid {
                self.pid = nil
                throw SystemCallError(
                    "redis-server exited (status \(status)): \(TestFile.text(logPath))", errno: ECHILD)
            }
            if let reply = try? command(["PING"]), reply.hasPrefix("+PONG") { return }
            usleep(10_000)
        }
        throw SystemCallError("redis-server did not answer on \(socketPath) within 10 s", errno: ETIMEDOUT)
    }

    /// Writes one command and reads one complete reply.
    private static func exchange(_ fd: Int32, _ arguments: [String]) throws(SystemCallError) -> String {
        let request = encode(arguments)
        let written = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == request.count else { throw SystemCallError("write to redis-server", errno: errno) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while RESPScanner.end(of: received) == nil {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { throw SystemCallError("read from redis-server", errno: count == 0 ? EPIPE : errno) }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// `$REDIS_SERVER` when set, else the first `redis-server` on `$PATH` (posix_spawn does not search).
    private static func serverPath() throws(SystemCallError) -> String {
        if let override = getenv("REDIS_SERVER"), override.pointee != 0 { return String(cString: override) }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where access("\(directory)/redis-server", X_OK) == 0 {
            return "\(directory)/redis-server"
        }
        throw SystemCallError("redis-server not found on PATH (install Debian's redis-server)", errno: ENOENT)
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, read back, released).
    private static func freePort() throws(SystemCallError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket", errno: errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1
            }
        }
        guard bound == 0 else { throw SystemCallError("bind 127.0.0.1:0", errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Finds where one complete RESP2 reply ends in a byte buffer.
enum RESPScanner {
    /// The index just past the first complete reply in `bytes`, or nil if it is not complete yet.
    static func end(of bytes: [UInt8], from start: Int = 0) -> Int? {
        guard start < bytes.count, let lineEnd = lineEnd(bytes, from: start) else { return nil }
        let header = String(decoding: bytes[(start + 1)..<lineEnd], as: UTF8.self)
        let next = lineEnd + 2
        switch bytes[start] {
        case UInt8(ascii: "$"):
            guard let length = Int(header) else { return nil }
            if length < 0 { return next }
            return bytes.count >= next + length + 2 ? next + length + 2 : nil
        case UInt8(ascii: "*"):
            guard let count = Int(header) else { return nil }
            var position = next
            for _ in 0..<max(count, 0) {
                guard let end = end(of: bytes, from: position) else { return nil }
                position = end
            }
            return position
        default:
            return next
        }
    }

    private static func lineEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }
}
