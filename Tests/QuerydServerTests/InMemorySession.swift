// An in-process client for server tests: a fake transport that collects what the server writes,
// with helpers to send lines and read back parsed replies and notifications.

import Logging
import QuerydCore
import QuerydJSON

@testable import QuerydServer

/// Collects a session's output, line by line.
final class RecordingTransport: SessionTransport {
    private(set) var output: [UInt8] = []
    private(set) var closeRequested = false

    func write(_ bytes: [UInt8]) { output.append(contentsOf: bytes) }
    func closeAfterWrites() { closeRequested = true }

    /// The complete lines written since the last call, parsed.
    func takeLines() -> [JSONValue] {
        var lines: [JSONValue] = []
        while let newline = output.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Array(output[..<newline])
            output.removeSubrange(...newline)
            lines.append(try! JSONParser.parse(line))
        }
        return lines
    }
}

/// A server on a manual clock with helpers to talk to it through in-memory sessions.
final class TestServer {
    let clock = ManualClock()
    let server: Server

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) {
        var configuration = ServerConfiguration()
        configuration.manualClock = true
        configure(&configuration)
        server = Server(configuration: configuration, clock: clock, logger: Logger(label: "test"))
    }

    func connect() -> TestClient { TestClient(server: server) }
}

/// One connection to a `TestServer`.
final class TestClient {
    let transport = RecordingTransport()
    let session: Session
    let server: Server
    private var lastID = 0

    init(server: Server) {
        self.server = server
        session = server.openSession(transport: transport)
    }

    /// Sends `line` and returns exactly the bytes written back.
    func rawReply(_ line: String) -> [UInt8] {
        Array((line + "\n").utf8).withUnsafeBytes { session.receive($0) }
        server.flush()
        let bytes = transport.output
        _ = transport.takeLines()
        return bytes
    }

    /// Sends raw text (one or more lines) and returns every line written back after a flush.
    @discardableResult
    func send(_ text: String) -> [JSONValue] {
        Array(text.utf8).withUnsafeBytes { session.receive($0) }
        server.flush()
        return transport.takeLines()
    }

    /// Sends a request and returns every line written back (its reply and anything else).
    @discardableResult
    func request(_ method: String, _ params: JSONValue? = nil) -> [JSONValue] {
        lastID += 1
        var message: [String: JSONValue] = [
            "jsonrpc": "2.0", "id": .number(JSONNumber(lastID)), "method": .string(method),
        ]
        if let params { message["params"] = params }
        return send(JSONValue.object(message).encodedString + "\n")
    }

    /// The result of a request answered at once.
    @discardableResult
    func call(_ method: String, _ params: JSONValue? = nil) -> JSONValue? {
        request(method, params).first { $0["id"] != nil }?["result"]
    }

    /// Lines written since the last read (after a flush).
    func drain() -> [JSONValue] {
        server.flush()
        return transport.takeLines()
    }
}
