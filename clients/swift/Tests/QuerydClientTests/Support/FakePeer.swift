// A scripted daemon for protocol cases the real daemon cannot produce: a Unix-socket listener whose test
// reads each request the client sends and writes the replies and notifications it wants, line by line.

import Foundation
import Glibc
import QuerydClient
import QuerydTestSupport

/// One listening socket; ``accept()`` takes the client's next connection.
final class FakePeer: Sendable {
    /// The socket path to give the client.
    let socketPath: String
    private let listener: Int32

    init() throws {
        socketPath = "/tmp/qdf-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        do {
            listener = try UnixSocket.bind(path: socketPath, backlog: 8)
        } catch {
            throw HarnessError(description: "fake peer: cannot listen on \(socketPath): \(error)")
        }
    }

    deinit {
        Glibc.close(listener)
        unlink(socketPath)
    }

    /// Waits (on a thread of its own) for the client's next connection.
    func accept() async -> PeerConnection {
        let listener = self.listener
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: PeerConnection(fd: Glibc.accept(listener, nil, nil))) }.start()
        }
    }
}

/// The daemon's end of one accepted connection.
final class PeerConnection: Sendable {
    private let fd: Int32
    private let lines: AsyncStream<JSONValue>

    init(fd: Int32) {
        self.fd = fd
        let (stream, continuation) = AsyncStream.makeStream(of: JSONValue.self)
        lines = stream
        Thread {
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                buffer.append(contentsOf: chunk[0..<count])
                while let newline = buffer.firstIndex(of: 0x0A) {
                    if let value = try? JSONParser.parse(buffer[..<newline]) { continuation.yield(value) }
                    buffer.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }.start()
    }

    deinit { Glibc.close(fd) }

    /// The next message from the client (nil at end of stream).
    func next() async -> JSONValue? {
        for await value in lines { return value }
        return nil
    }

    /// The next request, which must be `method`; returns its id and params.
    func expect(_ method: String) async throws -> (id: JSONValue, params: JSONValue) {
        guard let message = await next() else { throw HarnessError(description: "fake peer: EOF, wanted \(method)") }
        guard message["method"]?.stringValue == method, let id = message["id"] else {
            throw HarnessError(description: "fake peer: wanted \(method), got \(message.encodedString)")
        }
        return (id, message["params"] ?? .null)
    }

    /// Answers `id` with `result`.
    func reply(_ id: JSONValue, _ result: JSONValue) { send(["jsonrpc": "2.0", "id": id, "result": result]) }

    /// Answers `id` with an error object.
    func fail(_ id: JSONValue, _ error: JSONValue) { send(["jsonrpc": "2.0", "id": id, "error": error]) }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSONValue) {
        send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// Writes one message as one line.
    func send(_ message: JSONValue) {
        let bytes = message.encoded + [0x0A]
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Closes the connection (the client sees end of file).
    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Accepts the client's protocol-2 hello with this node and epoch; returns the hello's params.
    @discardableResult
    func acceptHello(epoch: String = "e1", capabilities: [JSONValue] = ["option:push"]) async throws -> JSONValue {
        let (id, params) = try await expect("server.hello")
        reply(
            id,
            [
                "server": "queryd", "version": "9.9.9", "protocol": 2, "capabilities": .array(capabilities),
                "node": "n1", "epoch": .string(epoch), "futureMember": ["ignored": true],
            ])
        return params
    }
}
