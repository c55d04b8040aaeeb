// A blocking newline-delimited JSON-RPC client over a Unix socket, with read deadlines.
//
// Replies are matched by id; notifications and server->client requests that arrive while a
// reply is awaited are queued so a test can inspect them in order afterwards.

import Glibc
import QuerydJSON
import QuerydTestSupport

/// One connection to the daemon. Every read has a deadline, so a silent daemon fails the test
/// instead of hanging it.
final class LineClient {
    /// The default read deadline in seconds.
    static let defaultTimeout = 5.0

    private var fd: Int32
    private var buffer: [UInt8] = []
    private var inbox: [JSONValue] = []
    private var nextID = 1

    /// Connects to `socketPath`.
    init(socketPath: String) throws {
        fd = try UnixSocket.connect(path: socketPath)
    }

    deinit { close() }

    // MARK: Writing

    /// Sends `line` followed by `\n`.
    func send(_ line: String) throws {
        try sendRaw(Array(line.utf8) + [0x0A])
    }

    /// Sends `bytes` exactly as given.
    func sendRaw(_ bytes: [UInt8]) throws {
        guard fd >= 0 else { throw IntegrationError("send on a closed client") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw IntegrationError.system("send", errno: errno)
            }
            offset += written
        }
    }

    /// Sends a request with a fresh numeric id and returns that id without waiting.
    @discardableResult
    func sendRequest(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
        let id = JSONValue.number(JSONNumber(nextID))
        nextID += 1
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
        if let params { message["params"] = params }
        try send(JSONValue.object(message).encodedString)
        return id
    }

    /// Sends a notification (no id).
    func notify(_ method: String, _ params: JSONValue? = nil) throws {
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = params }
        try send(JSONValue.object(message).encodedString)
    }

    /// Answers a server->client request with a result.
    func respond(id: JSONValue, result: JSONValue) throws {
        try send(JSONValue.object(["jsonrpc": "2.0", "id": id, "result": result]).encodedString)
    }

    /// Answers a server->client request with an error.
    func respondError(id: JSONValue, code: Int, message: String, data: JSONValue? = nil) throws {
        var error: [String: JSONValue] = ["code": .number(JSONNumber(code)), "message": .string(message)]
        if let data { error["data"] = data }
        try send(JSONValue.object(["jsonrpc": "2.0", "id": id, "error": .object(error)]).encodedString)
    }

    // MARK: Reading

    /// The next raw line (without its terminator); throws on timeout or end of stream.
    func readLine(timeout: Double = LineClient.defaultTimeout) throws -> String {
        let deadline = Clock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            try fill(until: deadline, waitingFor: "a line", timeout: timeout)
        }
    }

    /// Reads into the buffer; throws at the deadline or at end of stream.
    private func fill(until deadline: Double, waitingFor what: String, timeout: Double) throws {
        guard fd >= 0 else { throw IntegrationError("read on a closed client") }
        let remaining = deadline - Clock.now
        guard remaining > 0 else { throw IntegrationError.timeout(what, seconds: timeout) }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(1, (remaining * 1000).rounded(.up))))
        if ready < 0 {
            if errno == EINTR { return }
            throw IntegrationError.system("poll", errno: errno)
        }
        if ready == 0 { throw IntegrationError.timeout(what, seconds: timeout) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            if errno == ECONNRESET {
                throw IntegrationError.endOfStream(what, partial: String(decoding: buffer, as: UTF8.self))
            }
            throw IntegrationError.system("read", errno: errno)
        }
        if count == 0 { throw IntegrationError.endOfStream(what, partial: String(decoding: buffer, as: UTF8.self)) }
        buffer.append(contentsOf: chunk[0..<count])
    }

    /// Waits until the daemon closes the connection; throws if a line or a timeout comes first.
    func expectEndOfStream(timeout: Double = LineClient.defaultTimeout) throws {
        do {
            let line = try readLine(timeout: timeout)
            throw IntegrationError("expected the daemon to close the connection, got the line: \(line)")
        } catch let error as IntegrationError where error.kind == .endOfStream {
            return
        }
    }

    /// The next line, parsed as JSON.
    func readJSON(timeout: Double = LineClient.defaultTimeout) throws -> JSONValue {
        let line = try readLine(timeout: timeout)
        do {
            return try JSONParser.parse(line)
        } catch {
            throw IntegrationError("daemon sent a line that is not JSON (\(error)): \(line)")
        }
    }

    /// The next message: a queued one first, else a fresh line.
    func nextMessage(timeout: Double = LineClient.defaultTimeout) throws -> JSONValue {
        if !inbox.isEmpty { return inbox.removeFirst() }
        return try readJSON(timeout: timeout)
    }

    /// The messages read while waiting for something else and not consumed yet, in arrival order.
    var queued: [JSONValue] { inbox }

    /// Sends a request and waits for its reply (the whole response object, result or error).
    func call(_ method: String, _ params: JSONValue? = nil, timeout: Double = LineClient.defaultTimeout)
        throws -> JSONValue
    {
        let id = try sendRequest(method, params)
        return try awaitResponse(id: id, timeout: timeout)
    }

    /// Sends a request and returns its `result`; throws if the daemon answered with an error.
    func result(_ method: String, _ params: JSONValue? = nil, timeout: Double = LineClient.defaultTimeout)
        throws -> JSONValue
    {
        let reply = try call(method, params, timeout: timeout)
        guard let result = reply.member("result") else {
            throw IntegrationError("\(method) \(params?.encodedString ?? "") failed: \(reply.encodedString)")
        }
        return result
    }

    /// Waits for the response carrying `id`, queueing every other message.
    func awaitResponse(id: JSONValue, timeout: Double = LineClient.defaultTimeout) throws -> JSONValue {
        try awaitMessage("the reply to id \(id.encodedString)", timeout: timeout) {
            !$0.has("method") && $0.member("id") == id
        }
    }

    /// The next notification named `method` (queued or fresh); other messages stay queued.
    func nextNotification(method: String, timeout: Double = LineClient.defaultTimeout) throws -> JSONValue {
        try awaitMessage("a \(method) notification", timeout: timeout) {
            $0.member("method")?.asString == method && !$0.has("id")
        }
    }

    /// The next server->client request named `method` (queued or fresh); others stay queued.
    func nextRequest(method: String, timeout: Double = LineClient.defaultTimeout) throws -> JSONValue {
        try awaitMessage("a \(method) request", timeout: timeout) {
            $0.member("method")?.asString == method && $0.has("id")
        }
    }

    private func awaitMessage(_ what: String, timeout: Double, where matches: (JSONValue) -> Bool) throws
        -> JSONValue
    {
        if let index = inbox.firstIndex(where: matches) { return inbox.remove(at: index) }
        let deadline = Clock.now + timeout
        while true {
            let remaining = deadline - Clock.now
            guard remaining > 0 else {
                throw IntegrationError(
                    "timed out after \(timeout) s waiting for \(what); queued: \(inbox.map(\.encodedString))")
            }
            let message = try readJSON(timeout: remaining)
            if matches(message) { return message }
            inbox.append(message)
        }
    }

    /// Asserts that nothing is queued and no line arrives within `window` seconds, then proves the
    /// connection was idle (not merely slow) by getting a `server.ping` reply as the very next line.
    func expectSilence(for window: Double = 0.1) throws {
        guard inbox.isEmpty else {
            throw IntegrationError("expected silence, but these were queued: \(inbox.map(\.encodedString))")
        }
        do {
            let line = try readLine(timeout: window)
            throw IntegrationError("expected silence, got: \(line)")
        } catch let error as IntegrationError where error.kind == .timeout {}
        // A string id of its own, so the probe never reuses an id a test or transcript has pending.
        let id = JSONValue.string("silence-probe-\(nextID)")
        nextID += 1
        try send(JSONValue.object(["jsonrpc": "2.0", "id": id, "method": "server.ping", "params": [:]]).encodedString)
        let reply = try readJSON()
        guard reply.member("id") == id, reply.member("result") == .object([:]) else {
            throw IntegrationError("expected silence then the ping reply, got: \(reply.encodedString)")
        }
    }

    /// Half-closes the connection: the daemon sees end of input but may still write.
    func shutdownWrite() {
        if fd >= 0 { shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Closes the connection.
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }
}
