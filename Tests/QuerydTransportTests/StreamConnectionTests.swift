// Connections end to end on a real loop and socket: echo, large writes, half-close, backpressure, close rules.
import CLibUV
import Glibc
import QuerydTestSupport
import Testing

@testable import QuerydTransport

@Suite struct StreamConnectionTests {
    @Test func echoesLinesWrittenInManySmallChunks() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer.echo(loop: loop, path: path)
        let (client, recorder) = try connectRecordedClient(loop, path: path)
        client.startReading()
        var expected: [UInt8] = []
        for index in 0..<400 {
            let line = Array("line \(index) {\"jsonrpc\":\"2.0\"}\n".utf8)
            expected += line
            var offset = 0
            while offset < line.count {
                let length = min(1 + index % 3, line.count - offset)
                client.write(Array(line[offset..<offset + length]))
                offset += length
            }
        }
        spin(loop) { recorder.received.count >= expected.count }
        #expect(recorder.received == expected)
        #expect(server.recorders.first?.received == expected)
        withExtendedLifetime(server) { finish(loop) }
    }

    @Test func fiveMegabyteWriteArrivesCompleteAndInOrder() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let payload = pattern(5 * 1_024 * 1_024)
        let server = try TestServer(loop: loop, path: path) { connection, _ in
            connection.write(payload)
            connection.closeAfterWrites()
        }
        let (client, recorder) = try connectRecordedClient(loop, path: path)
        recorder.onEOF = { $0.close() }
        client.startReading()
        spin(loop) { recorder.closeCount == 1 }
        #expect(recorder.received.count == payload.count)
        #expect(recorder.received == payload)
        #expect(Array(recorder.events.suffix(2)) == [.eof, .close])
        #expect(client.closeReason == nil)
        spin(loop) { server.recorders.first?.closeCount == 1 }
        #expect(server.connections.first?.closeReason == nil)
        finish(loop)
    }

    @Test func halfClosedPeerStillGetsTheReplyThenEOF() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer(loop: loop, path: path) { connection, recorder in
            recorder.onEOF = { [unowned recorder] connection in
                connection.write(Array("pong:".utf8) + recorder.received)
                connection.closeAfterWrites()
            }
            connection.startReading()
        }
        let client = try UnixSocket.connect(path: path)
        defer { Glibc.close(client) }
        posixWrite(client, Array("ping\n".utf8))
        #expect(shutdown(client, Int32(SHUT_WR)) == 0)
        spin(loop) { server.recorders.first?.closeCount == 1 }
        #expect(posixReadToEOF(client) == Array("pong:ping\n".utf8))
        #expect(server.recorders.first?.mergedEvents == [.read(5), .eof, .close])
        #expect(server.connections.first?.closeReason == nil)
        finish(loop)
    }

    @Test func stopReadingHoldsBytesUntilStartReading() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer(loop: loop, path: path) { connection, recorder in
            recorder.onRead = { connection, _ in connection.stopReading() }
            connection.startReading()
        }
        let (client, _) = try connectRecordedClient(loop, path: path)
        client.write(Array("first\n".utf8))
        spin(loop) { server.recorders.first?.received.count == 6 }
        client.write(Array("second\n".utf8))
        spin(loop) { client.writeQueueSize == 0 }
        runIterations(loop, 50)
        let serverRecorder = try #require(server.recorders.first)
        #expect(serverRecorder.received == Array("first\n".utf8))
        server.connections[0].startReading()
        spin(loop) { serverRecorder.received.count == 13 }
        #expect(serverRecorder.received == Array("first\nsecond\n".utf8))
        finish(loop)
    }

    @Test func writeQueueGrowsWhilePeerDoesNotReadAndDrainsAfter() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer(loop: loop, path: path) { _, _ in }
        let (client, recorder) = try connectRecordedClient(loop, path: path)
        spin(loop) { server.connections.count == 1 }
        let serverConnection = server.connections[0]
        #expect(serverConnection.writeQueueSize == 0)
        let chunk = pattern(1_024 * 1_024)
        for _ in 0..<16 {
            serverConnection.write(chunk)
        }
        let queued = serverConnection.writeQueueSize
        #expect(queued > 8 * 1_024 * 1_024)
        #expect(queued <= 16 * 1_024 * 1_024)
        runIterations(loop, 20)
        #expect(serverConnection.writeQueueSize == queued)
        client.startReading()
        spin(loop) { recorder.received.count == 16 * chunk.count }
        #expect(serverConnection.writeQueueSize == 0)
        #expect(Array(recorder.received.suffix(chunk.count)) == chunk)
        finish(loop)
    }

    @Test func partlyAcceptedWriteQueuesTheRestAheadOfLaterWrites() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer(loop: loop, path: path) { _, _ in }
        let (client, recorder) = try connectRecordedClient(loop, path: path)
        spin(loop) { server.connections.count == 1 }
        let serverConnection = server.connections[0]
        // A small write with nothing queued goes to the socket at once.
        serverConnection.write(Array("first\n".utf8))
        #expect(serverConnection.writeQueueSize == 0)
        // Larger than the socket buffer: part is written now, the rest is queued.
        let big = pattern(4 * 1_024 * 1_024)
        serverConnection.write(big)
        let queued = serverConnection.writeQueueSize
        #expect(queued > 0)
        #expect(queued < big.count)
        // Later writes (array and raw buffer, reused by the caller) queue behind it, in order.
        serverConnection.write(Array("second\n".utf8))
        var scratch = Array("third\n".utf8)
        scratch.withUnsafeBytes { serverConnection.write($0) }
        for index in scratch.indices { scratch[index] = 0 }
        #expect(serverConnection.writeQueueSize == queued + 13)
        client.startReading()
        let expected = Array("first\n".utf8) + big + Array("second\nthird\n".utf8)
        spin(loop) { recorder.received.count == expected.count }
        #expect(recorder.received == expected)
        #expect(serverConnection.writeQueueSize == 0)
        #expect(serverConnection.closeReason == nil)
        finish(loop)
    }

    @Test func closingInsideDidReadIsSafeAndFinal() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer(loop: loop, path: path) { connection, recorder in
            recorder.onRead = { connection, _ in
                connection.close()
                connection.close()
                connection.write(Array("ignored\n".utf8))
                connection.closeAfterWrites()
                connection.startReading()
            }
            connection.startReading()
        }
        let (client, recorder) = try connectRecordedClient(loop, path: path)
        client.startReading()
        client.write(Array("abc\ndef\n".utf8))
        spin(loop) { recorder.eofCount == 1 && server.recorders.first?.closeCount == 1 }
        runIterations(loop, 20)
        let serverRecorder = try #require(server.recorders.first)
        #expect(serverRecorder.mergedEvents == [.read(8), .close])
        #expect(serverRecorder.readCount == 1)
        #expect(server.connections[0].isClosed)
        #expect(recorder.received.isEmpty)
        #expect(recorder.events == [.eof])
        finish(loop)
        #expect(recorder.events == [.eof, .close])
    }

    @Test func connectionDidCloseIsDeliveredExactlyOnce() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer.echo(loop: loop, path: path)
        let (first, firstRecorder) = try connectRecordedClient(loop, path: path)
        let (second, secondRecorder) = try connectRecordedClient(loop, path: path)
        first.closeAfterWrites()
        first.close()
        first.close()
        first.closeAfterWrites()
        #expect(first.isClosed)
        #expect(!second.isClosed)
        spin(loop) { firstRecorder.closeCount == 1 }
        runIterations(loop, 20)
        #expect(firstRecorder.events == [.close])
        first.write(Array("after close\n".utf8))
        first.startReading()
        spin(loop) { server.recorders.count == 2 && server.recorders[0].closeCount == 1 }
        finish(loop)
        #expect(secondRecorder.events == [.close])
        #expect(server.recorders.map(\.closeCount) == [1, 1])
        #expect(second.isClosed)
    }

    @Test func writeToVanishedPeerClosesWithAnError() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer(loop: loop, path: path) { _, _ in }
        let client = try UnixSocket.connect(path: path)
        spin(loop) { server.connections.count == 1 }
        Glibc.close(client)
        let connection = server.connections[0]
        for _ in 0..<4 where !connection.isClosed {
            connection.write(pattern(1_024))
            runIterations(loop, 5)
        }
        spin(loop) { server.recorders[0].closeCount == 1 }
        let reason = try #require(connection.closeReason)
        #expect([UV_EPIPE.rawValue, UV_ECONNRESET.rawValue].contains(reason.code))
        #expect(reason.context.contains("write"))
        finish(loop)
    }

    @Test func peerCredentialsAreThisProcess() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer(loop: loop, path: path) { _, _ in }
        let (client, _) = try connectRecordedClient(loop, path: path)
        spin(loop) { server.connections.count == 1 }
        let me = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
        #expect(server.connections[0].peer == me)
        #expect(client.peer == me)
        #expect(client.id != server.connections[0].id)
        finish(loop)
    }

    @Test func connectFailuresAreReported() throws {
        let loop = try makeLoop()
        let missing = temporarySocketPath()
        let absent = try #require(connectClient(loop, path: missing))
        #expect(throws: TransportError.self) { try absent.get() }
        if case .failure(let error) = absent {
            #expect(error.code == UV_ENOENT.rawValue)
            #expect(error.name == "ENOENT")
            #expect(error.description == "connect \(missing): ENOENT (no such file or directory)")
        }
        var tooLong: Result<StreamConnection, TransportError>?
        StreamConnection.connect(loop: loop, path: "/tmp/" + String(repeating: "x", count: 103)) { tooLong = $0 }
        if case .failure(let error)? = tooLong {
            #expect(error.code == UV_ENAMETOOLONG.rawValue)
        } else {
            Issue.record("expected an immediate ENAMETOOLONG failure, got \(String(describing: tooLong))")
        }
        finish(loop)
    }

    @Test func acceptWithoutHandlerClosesTheConnection() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let listener = try UnixListener(loop: loop, path: path)
        let (client, recorder) = try connectRecordedClient(loop, path: path)
        client.startReading()
        spin(loop) { recorder.eofCount == 1 }
        #expect(recorder.events == [.eof])
        listener.close(unlinkSocket: true)
        finish(loop)
    }
}
