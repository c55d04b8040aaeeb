// A peer that stops reading, through an in-memory transport whose unread byte count the test
// sets: pushes coalesce to the newest state, replies are all kept in order, and past the
// outbound limit the connection is closed.

import Logging
import QuerydJSON
import Testing

@testable import QuerydServer

/// A transport whose peer reads only when the test says so.
final class ThrottledTransport: SessionTransport {
    private(set) var output: [UInt8] = []
    private(set) var aborted = false
    private(set) var closeRequested = false
    /// What the peer has not read yet, as the session sees it.
    var unread = 0

    func write(_ bytes: [UInt8]) { output.append(contentsOf: bytes) }
    func closeAfterWrites() { closeRequested = true }
    var queuedWriteBytes: Int { unread }
    func abort() { aborted = true }

    /// The complete lines written since the last call, parsed.
    func takeLines() -> [JSONValue] {
        var lines: [JSONValue] = []
        while let newline = output.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(try! JSONParser.parse(Array(output[..<newline])))
            output.removeSubrange(...newline)
        }
        return lines
    }
}

@Suite struct SlowConsumerTests {
    /// A session on `test`'s server over a throttled transport.
    static func slowSession(_ test: TestServer) -> (Session, ThrottledTransport) {
        let transport = ThrottledTransport()
        return (test.server.openSession(transport: transport), transport)
    }

    static func send(_ session: Session, _ text: String) {
        Array(text.utf8).withUnsafeBytes { session.receive($0) }
    }

    @Test func pushesForOneSubscriptionCoalesceToTheNewestState() {
        let test = TestServer()
        let (session, transport) = SlowConsumerTests.slowSession(test)
        SlowConsumerTests.send(
            session, #"{"jsonrpc":"2.0","id":1,"method":"query.subscribe","params":{"key":["k"]}}"# + "\n")
        test.server.flush()
        #expect(transport.takeLines().first?["result"]?["subscription"] == 1)
        // The peer stops reading: 2 000 writes to its key leave nothing but one pending push.
        transport.unread = 1 << 20
        let writer = test.connect()
        for value in 1...2_000 {
            writer.call("query.set", ["key": ["k"], "data": .number(JSONNumber(value))])
        }
        #expect(transport.takeLines().isEmpty)
        #expect(session.outbox.queuedBytes == 0)
        // Once it reads again, it gets one notification with the latest state.
        transport.unread = 0
        test.server.flush()
        let lines = transport.takeLines()
        #expect(lines.count == 1)
        #expect(lines.first?["method"] == "query.changed")
        #expect(lines.first?["params"]?["subscription"] == 1)
        #expect(lines.first?["params"]?["state"]?["data"] == 2_000)
        #expect(lines.first?["params"]?["state"]?["dataUpdateCount"] == 2_000)
    }

    @Test func repliesToAPeerThatIsNotReadingAreKeptInOrder() {
        let test = TestServer()
        let (session, transport) = SlowConsumerTests.slowSession(test)
        transport.unread = 1 << 20
        for id in 1...500 {
            SlowConsumerTests.send(session, #"{"jsonrpc":"2.0","id":\#(id),"method":"server.ping"}"# + "\n")
        }
        test.server.flush()
        #expect(transport.takeLines().isEmpty)
        #expect(session.pendingOutputBytes > 1 << 20)
        transport.unread = 0
        test.server.flush()
        let lines = transport.takeLines()
        #expect(lines == (1...500).map { ["jsonrpc": "2.0", "id": .number(JSONNumber($0)), "result": [:]] })
    }

    @Test func pushesAndRepliesKeepTheirOrderWhileHeld() {
        let test = TestServer()
        let (session, transport) = SlowConsumerTests.slowSession(test)
        SlowConsumerTests.send(
            session, #"{"jsonrpc":"2.0","id":1,"method":"query.subscribe","params":{"key":["k"]}}"# + "\n")
        test.server.flush()
        _ = transport.takeLines()
        transport.unread = 1 << 20
        test.connect().call("query.set", ["key": ["k"], "data": 1])
        SlowConsumerTests.send(session, #"{"jsonrpc":"2.0","id":2,"method":"server.ping"}"# + "\n")
        test.connect().call("query.set", ["key": ["k"], "data": 2])
        transport.unread = 0
        test.server.flush()
        let lines = transport.takeLines()
        // The push keeps the place of the first change and carries the newest state.
        #expect(lines.count == 2)
        #expect(lines.first?["params"]?["state"]?["data"] == 2)
        #expect(lines.last == ["jsonrpc": "2.0", "id": 2, "result": [:]])
    }

    @Test func pastTheOutboundLimitTheConnectionIsClosed() {
        let test = TestServer {
            $0.maxOutboundBytes = 10_000
            $0.outboundHoldBytes = 1_000
        }
        let (session, transport) = SlowConsumerTests.slowSession(test)
        let other = test.connect()
        transport.unread = 9_000
        // Within the limit: held, not closed.
        SlowConsumerTests.send(session, #"{"jsonrpc":"2.0","id":1,"method":"server.ping"}"# + "\n")
        test.server.flush()
        #expect(!transport.aborted)
        // 40 bytes per reply: the limit is passed within the next 100 requests.
        for id in 2...100 {
            SlowConsumerTests.send(session, #"{"jsonrpc":"2.0","id":\#(id),"method":"server.ping"}"# + "\n")
        }
        test.server.flush()
        #expect(transport.aborted)
        // The queued replies are dropped; only the reason of the close is given to the transport.
        let lines = transport.takeLines()
        #expect(lines.count == 1)
        #expect(lines.first?["method"] == "$/closing")
        #expect(lines.first?["params"]?["limit"] == "max-outbound-bytes")
        #expect(session.pendingOutputBytes == 9_000)
        // Input after the close is ignored; other connections are unaffected.
        SlowConsumerTests.send(session, #"{"jsonrpc":"2.0","id":101,"method":"server.ping"}"# + "\n")
        #expect(session.outbox.isEmpty)
        #expect(other.call("server.ping") == [:])
    }

    @Test func aRequestFloodWithoutReadingStopsAtTheLimitWithinOneRead() {
        let test = TestServer { $0.maxOutboundBytes = 100_000 }
        let (session, transport) = SlowConsumerTests.slowSession(test)
        transport.unread = 1 << 19
        // One read holding many requests with large replies: processing stops once the limit is passed.
        let request = #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"# + "\n"
        SlowConsumerTests.send(session, String(repeating: request, count: 1_000))
        #expect(transport.aborted)
        #expect(session.outbox.queuedBytes == 0)
    }
}
