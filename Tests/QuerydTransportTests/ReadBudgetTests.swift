// The read budget: a connection with more than one slab waiting is read one slab per loop turn, and a
// connection its owner stopped after a full read stays stopped.
import QuerydTestSupport
import Testing

@testable import QuerydTransport

@Suite struct ReadBudgetTests {
    /// Bytes the server's connection read in each loop turn (recorded before each poll).
    private final class TurnReads {
        var perTurn: [Int] = []
        var current = 0
    }

    @Test func aBusyConnectionIsReadOneSlabPerTurn() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let turns = TurnReads()
        let server = try TestServer(loop: loop, path: path) { connection, recorder in
            recorder.onRead = { _, bytes in turns.current += bytes.count }
            connection.startReading()
        }
        loop.onBeforeSleep {
            turns.perTurn.append(turns.current)
            turns.current = 0
        }
        let (client, _) = try connectRecordedClient(loop, path: path)
        spin(loop) { server.connections.count == 1 }
        let payload = pattern(2 * 1_024 * 1_024)
        client.write(payload)
        spin(loop) { server.recorders[0].received.count == payload.count }
        #expect(server.recorders[0].received == payload)
        #expect(turns.perTurn.max() ?? 0 <= EventLoop.readSlabSize)
        #expect(turns.perTurn.filter { $0 == EventLoop.readSlabSize }.count >= 2)
        finish(loop)
    }

    @Test func stoppingAfterAFullReadKeepsTheConnectionStopped() throws {
        let loop = try makeLoop()
        let path = temporarySocketPath()
        let server = try TestServer(loop: loop, path: path) { connection, recorder in
            // The owner stops reading after the first full slab (as backpressure does).
            recorder.onRead = { connection, bytes in
                if bytes.count == EventLoop.readSlabSize { connection.stopReading() }
            }
            connection.startReading()
        }
        let (client, _) = try connectRecordedClient(loop, path: path)
        spin(loop) { server.connections.count == 1 }
        let payload = pattern(512 * 1_024)
        client.write(payload)
        let recorder = server.recorders[0]
        spin(loop) { recorder.received.count >= EventLoop.readSlabSize }
        let held = recorder.received.count
        runIterations(loop, 50)
        #expect(recorder.received.count == held)
        recorder.onRead = nil
        server.connections[0].startReading()
        spin(loop) { recorder.received.count == payload.count }
        #expect(recorder.received == payload)
        finish(loop)
    }
}
