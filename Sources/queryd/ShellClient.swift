// The blocking line client behind `queryd call`, `queryd watch` and `queryd fetcher`: one Unix
// socket, one JSON-RPC message per line, plain Glibc calls (these commands need no event loop).

import ArgumentParser
import Glibc
import QuerydJSON
import QuerydRPC

/// Why a shell command could not talk to the daemon; these exit with status 2.
struct ShellTransportError: Error, CustomStringConvertible {
    /// What went wrong, for stderr.
    let description: String
    init(_ description: String) { self.description = description }
}

/// One blocking connection to the daemon.
final class ShellClient {
    /// The socket's file descriptor (for `poll`).
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// Messages that arrived while `call` waited for its reply, in arrival order.
    private var queued: [JSONValue] = []
    /// Why the daemon said it closes the connection (`$/closing`), reported with the end of the stream.
    private var closingReason: String?

    /// Connects to the daemon at `path`.
    init(socketPath path: String) throws(ShellTransportError) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ShellTransportError("socket: \(Self.reason(errno))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw ShellTransportError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw ShellTransportError("cannot connect to queryd at \(path): \(Self.reason(code))")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Connects to `path`, trying again while nothing listens there (a daemon restarting): 50 ms, doubling up
    /// to 1 s, with up to half of each delay taken off at random. Never gives up (the user interrupts).
    static func reconnecting(to path: String) -> ShellClient {
        var delay = 0.05
        while true {
            usleep(useconds_t(delay * Double.random(in: 0.5...1) * 1_000_000))
            if let client = try? ShellClient(socketPath: path) { return client }
            delay = min(delay * 2, 1)
        }
    }

    /// `server.hello` asking for protocol 1 to 2 and naming the server->client `requests` this command
    /// answers. A protocol-1 daemon refuses the negotiation members without `data.supported`; then the hello
    /// is sent with `client` alone. Any other refusal is returned as the reply's error.
    func hello(requests: [String]) throws(ShellTransportError) -> JSONValue? {
        let client: JSONValue = ["name": "queryd-shell", "version": "0.2.0"]
        let reply = try call(
            "server.hello",
            params: [
                "client": client, "protocol": ["min": 1, "max": 2],
                "capabilities": ["requests": .array(requests.map(JSONValue.string))],
            ])
        guard let error = reply["error"] else { return nil }
        let field = error["data"]?["field"]?.stringValue
        guard RPCError(jsonValue: error)?.code == .invalidParams, error["data"]?["supported"] == nil,
            error["data"]?["missing"] == nil,
            field == "protocol" || field == "capabilities"
        else { return error }
        return try call("server.hello", params: ["client": client])["error"]
    }

    /// Keeps the reason of a `$/closing` notification for the error that reports the connection's end.
    func noteClosing(_ message: JSONValue) {
        guard message["method"] == "$/closing", let params = message["params"] else { return }
        let reason = params["reason"]?.stringValue ?? "closing"
        closingReason = params["limit"]?.stringValue.map { "\(reason), limit \($0)" } ?? reason
    }

    /// Answers a server->client request this command does not serve with -32601 `{"method": name}`.
    func refuse(_ request: JSONValue) throws(ShellTransportError) {
        guard let id = request["id"], let method = request["method"] else { return }
        try send(
            [
                "jsonrpc": "2.0", "id": id,
                "error": RPCError(.methodNotFound, data: ["method": method]).jsonValue,
            ])
    }

    /// Sends a request with a fresh id and returns that id.
    @discardableResult
    func sendRequest(_ method: String, params: JSONValue?) throws(ShellTransportError) -> Int {
        let id = nextID
        nextID += 1
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "id": .number(JSONNumber(id)), "method": .string(method)]
        if let params { message["params"] = params }
        try send(.object(message))
        return id
    }

    /// Sends one message as one line.
    func send(_ message: JSONValue) throws(ShellTransportError) {
        let bytes = message.encoded + [0x0A]
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw ShellTransportError("write to queryd failed: \(Self.reason(errno))")
            }
            offset += written
        }
    }

    /// Sends `method` and blocks until its reply; returns the reply object (with `result` or `error`).
    /// Other messages that arrive meanwhile are kept for `nextMessage` and `bufferedMessage`: the
    /// daemon may, for example, send a `fetch` before the `fetcher.register` reply.
    func call(_ method: String, params: JSONValue?) throws(ShellTransportError) -> JSONValue {
        let id = JSONValue.number(JSONNumber(try sendRequest(method, params: params)))
        var others: [JSONValue] = []
        defer { queued.append(contentsOf: others) }
        while true {
            let message = try nextFromSocket()
            if message["method"] == nil, message["id"] == id { return message }
            others.append(message)
        }
    }

    /// The next message, blocking until one arrives; throws at end of stream.
    func nextMessage() throws(ShellTransportError) -> JSONValue {
        if let message = bufferedMessage() { return message }
        return try nextFromSocket()
    }

    private func nextFromSocket() throws(ShellTransportError) -> JSONValue {
        while true {
            if let message = lineMessage() { return message }
            try readAvailable()
        }
    }

    /// A complete message already received, if any, without reading the socket.
    func bufferedMessage() -> JSONValue? {
        if !queued.isEmpty { return queued.removeFirst() }
        return lineMessage()
    }

    /// The next complete line of the read buffer as JSON (lines that are not JSON are skipped).
    private func lineMessage() -> JSONValue? {
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = buffer[..<newline]
            defer { buffer.removeSubrange(...newline) }
            if let message = try? JSONParser.parse(line) { return message }
        }
        return nil
    }

    /// Reads what the socket has (blocking until something arrives); throws at end of stream.
    func readAvailable() throws(ShellTransportError) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return
            }
            if count < 0, errno == EINTR { continue }
            let closing = closingReason.map { " (\($0))" } ?? ""
            throw ShellTransportError(
                count == 0 ? "the daemon closed the connection\(closing)" : "read failed: \(Self.reason(errno))")
        }
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Unbuffered writes to stdout and stderr (one whole line per call).
enum ShellOutput {
    /// Writes `text` and a newline to file descriptor `fd` (1 = stdout, 2 = stderr).
    static func line(_ text: String, to fd: Int32 = 1) {
        let bytes = Array(text.utf8) + [0x0A]
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Parses JSON given on the command line; a bad value is a usage error (exit status 64).
func parseArgumentJSON(_ text: String, name: String) throws -> JSONValue {
    do {
        return try JSONParser.parse(text)
    } catch {
        throw ValidationError("\(name) is not valid JSON (\(error)): \(text)")
    }
}

/// The `--socket` option's help, the same in every command.
let socketOptionHelp = ArgumentHelp(
    "Socket path (default: $QUERYD_SOCKET, else $XDG_RUNTIME_DIR/queryd.sock, else /tmp/queryd-<uid>.sock).")

/// The socket path for `--socket explicit`, resolved by `SocketPath`'s rules from this process's environment.
func resolvedSocketPath(explicit: String?) -> String {
    var environment: [String: String] = [:]
    for name in SocketPath.variableNames {
        if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return SocketPath.resolve(explicit: explicit, environment: environment, userID: getuid())
}
