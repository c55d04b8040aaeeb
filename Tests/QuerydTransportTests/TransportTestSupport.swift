// Test harness: loop driving with deadlines, clean loop teardown, recording delegates, a test server, POSIX sockets.
import CLibUV
import Glibc
import Testing

@testable import QuerydTransport

/// A short, unique socket path under /tmp.
func temporarySocketPath() -> String {
    "/tmp/qdt-\(getpid())-\(UInt32.random(in: 0 ... .max)).sock"
}

/// A new loop for one test; SIGPIPE is ignored so writes to closed peers fail instead of killing the runner.
func makeLoop() throws -> EventLoop {
    EventLoop.ignoreSIGPIPE()
    return try EventLoop()
}

/// Runs non-blocking loop iterations until `condition` holds. The deadline only turns a hang into a failure.
@discardableResult
func spin(
    _ loop: EventLoop, seconds: Int64 = 20, sourceLocation: SourceLocation = #_sourceLocation,
    until condition: () -> Bool
) -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        if ContinuousClock.now > deadline {
            Issue.record("condition not reached within \(seconds) s", sourceLocation: sourceLocation)
            return false
        }
        _ = uv_run(loop.rawLoop, UV_RUN_NOWAIT)
    }
    return true
}

/// Runs exactly `count` non-blocking iterations.
func runIterations(_ loop: EventLoop, _ count: Int) {
    for _ in 0..<count {
        _ = uv_run(loop.rawLoop, UV_RUN_NOWAIT)
    }
}

/// Number of handles libuv still knows on the loop (uv_walk skips libuv's internal handles).
func liveHandleCount(_ loop: EventLoop) -> Int {
    var count = 0
    uv_walk(loop.rawLoop, { _, argument in argument!.assumingMemoryBound(to: Int.self).pointee += 1 }, &count)
    return count
}

/// Closes every handle, checks that none is left (uv_walk), then that `uv_loop_close` succeeds.
func finish(_ loop: EventLoop, sourceLocation: SourceLocation = #_sourceLocation) {
    loop.closeAllHandles()
    #expect(liveHandleCount(loop) == 0, sourceLocation: sourceLocation)
    loop.close()
    #expect(loop.isClosed, sourceLocation: sourceLocation)
    #expect(loop.closeError == nil, sourceLocation: sourceLocation)
}

/// What a recording delegate saw, in order.
enum ConnectionEvent: Equatable {
    case read(Int)
    case eof
    case close
}

/// A delegate that records every event and can run a hook on reads and EOF.
final class Recorder: StreamConnectionDelegate {
    var received: [UInt8] = []
    var events: [ConnectionEvent] = []
    var onRead: ((StreamConnection, UnsafeRawBufferPointer) -> Void)?
    var onEOF: ((StreamConnection) -> Void)?

    var eofCount: Int { events.filter { $0 == .eof }.count }
    var closeCount: Int { events.filter { $0 == .close }.count }
    var readCount: Int { events.count - eofCount - closeCount }
    /// The events with consecutive reads merged into one `.read(total)`.
    var mergedEvents: [ConnectionEvent] {
        var merged: [ConnectionEvent] = []
        for event in events {
            if case .read(let count) = event, case .read(let previous)? = merged.last {
                merged[merged.count - 1] = .read(previous + count)
            } else {
                merged.append(event)
            }
        }
        return merged
    }

    func connection(_ connection: StreamConnection, didRead bytes: UnsafeRawBufferPointer) {
        received.append(contentsOf: bytes)
        events.append(.read(bytes.count))
        onRead?(connection, bytes)
    }

    func connectionDidReceiveEOF(_ connection: StreamConnection) {
        events.append(.eof)
        onEOF?(connection)
    }

    func connectionDidClose(_ connection: StreamConnection) {
        events.append(.close)
    }
}

/// A listener that keeps every accepted connection and its recorder, configured by the test.
final class TestServer {
    let listener: UnixListener
    var connections: [StreamConnection] = []
    var recorders: [Recorder] = []

    init(loop: EventLoop, path: String, configure: @escaping (StreamConnection, Recorder) -> Void) throws {
        listener = try UnixListener(loop: loop, path: path)
        listener.onAccept = { [weak self] connection in
            let recorder = Recorder()
            connection.delegate = recorder
            self?.connections.append(connection)
            self?.recorders.append(recorder)
            configure(connection, recorder)
        }
    }

    /// An echo server: one write per read callback, close after writes on EOF.
    static func echo(loop: EventLoop, path: String) throws -> TestServer {
        try TestServer(loop: loop, path: path) { connection, recorder in
            recorder.onRead = { connection, bytes in connection.write(bytes) }
            recorder.onEOF = { connection in connection.closeAfterWrites() }
            connection.startReading()
        }
    }
}

/// Connects an in-loop client and waits for the result.
func connectClient(_ loop: EventLoop, path: String) -> Result<StreamConnection, TransportError>? {
    var result: Result<StreamConnection, TransportError>?
    StreamConnection.connect(loop: loop, path: path) { result = $0 }
    spin(loop) { result != nil }
    return result
}

/// Connects an in-loop client with a recorder attached (not yet reading).
func connectRecordedClient(_ loop: EventLoop, path: String) throws -> (StreamConnection, Recorder) {
    let connection = try #require(try connectClient(loop, path: path)?.get())
    let recorder = Recorder()
    connection.delegate = recorder
    return (connection, recorder)
}

/// A deterministic byte pattern of `count` bytes.
func pattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 9)) }
}

/// Writes all of `bytes` to a blocking descriptor.
func posixWrite(_ descriptor: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Reads from a blocking descriptor until EOF; only call once the peer has closed or shut down its side.
func posixReadToEOF(_ descriptor: Int32) -> [UInt8] {
    var all: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
        if count <= 0 { return all }
        all.append(contentsOf: chunk[0..<count])
    }
}
