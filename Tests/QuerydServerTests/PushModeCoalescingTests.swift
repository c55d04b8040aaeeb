// Coalescing in the protocol-2 push modes, through a peer that stops reading: a held patch-mode
// push is written once, as a patch from the data last written to that subscription (not from any
// state in between), and a meta-mode push carries the newest dataVersion without data.

import QuerydJSON
import Testing

@testable import QuerydServer

@Suite struct PushModeCoalescingTests {
    /// Subscribes a slow session to `key` in `mode`; returns the reply's state.
    private func subscribe(_ session: Session, _ transport: ThrottledTransport, _ test: TestServer, mode: String)
        -> JSONValue?
    {
        SlowConsumerTests.send(
            session,
            #"{"jsonrpc":"2.0","id":1,"method":"query.subscribe","params":{"key":["k"],"options":{"push":"\#(mode)","staleTime":60000}}}"#
                + "\n")
        test.server.flush()
        return transport.takeLines().first?["result"]?["state"]
    }

    @Test func aHeldPatchPushPatchesFromTheDataLastWritten() {
        let test = TestServer()
        let writer = test.connect()
        writer.call("query.set", ["key": ["k"], "data": ["n": 0, "pad": "................................"]])
        let (session, transport) = SlowConsumerTests.slowSession(test)
        let first = subscribe(session, transport, test, mode: "patch")
        #expect(first?["data"]?["n"] == 0)
        transport.unread = 1 << 20
        var last: JSONValue?
        for value in 1...100 {
            last = writer.call("query.set", ["key": ["k"], "mergePatch": ["n": .number(JSONNumber(value))]])
        }
        #expect(transport.takeLines().isEmpty)
        transport.unread = 0
        test.server.flush()
        let lines = transport.takeLines()
        #expect(lines.count == 1)
        let params = lines.first?["params"]
        #expect(params?["patch"]?["baseVersion"] == first?["dataVersion"])
        #expect(params?["patch"]?["version"] == last?["version"])
        #expect(params?["patch"]?["patch"] == ["n": 100])
        #expect(params?["state"]?["data"] == nil)
        #expect(params?["state"]?["dataVersion"] == last?["version"])
        // The next push patches from what was just written.
        let next = writer.call("query.set", ["key": ["k"], "mergePatch": ["n": 101]])
        test.server.flush()
        let after = transport.takeLines().first?["params"]?["patch"]
        #expect(
            after == ["baseVersion": last?["version"] ?? nil, "version": next?["version"] ?? nil, "patch": ["n": 101]])
    }

    @Test func aHeldMetaPushCarriesTheNewestDataVersion() {
        let test = TestServer()
        let writer = test.connect()
        writer.call("query.set", ["key": ["k"], "data": 0])
        let (session, transport) = SlowConsumerTests.slowSession(test)
        #expect(subscribe(session, transport, test, mode: "meta")?["data"] == nil)
        transport.unread = 1 << 20
        var last: JSONValue?
        for value in 1...50 { last = writer.call("query.set", ["key": ["k"], "data": .number(JSONNumber(value))]) }
        transport.unread = 0
        test.server.flush()
        let lines = transport.takeLines()
        #expect(lines.count == 1)
        #expect(lines.first?["params"]?["state"]?["dataVersion"] == last?["version"])
        #expect(lines.first?["params"]?["state"]?["data"] == nil)
        #expect(lines.first?["params"]?["patch"] == nil)
    }

    @Test func anOwnWriteDropsTheQueuedPushOfAnEchoFalseSubscriptionOfThatKeyOnly() {
        let test = TestServer()
        let (session, transport) = SlowConsumerTests.slowSession(test)
        for (id, key) in [(1, "k"), (2, "other")] {
            SlowConsumerTests.send(
                session,
                #"{"jsonrpc":"2.0","id":\#(id),"method":"query.subscribe","params":{"key":["\#(key)"],"options":{"echo":false,"enabled":false}}}"#
                    + "\n")
        }
        test.server.flush()
        #expect(transport.takeLines().count == 2)
        // Held: another connection's writes queue one push per subscription.
        transport.unread = 1 << 20
        let writer = test.connect()
        writer.call("query.set", ["key": ["k"], "data": 1])
        writer.call("query.set", ["key": ["other"], "data": 1])
        // Its own write of ["k"]: the reply has the newest state; the queued push of ["k"] goes.
        SlowConsumerTests.send(
            session, #"{"jsonrpc":"2.0","id":3,"method":"query.set","params":{"key":["k"],"data":2}}"# + "\n")
        transport.unread = 0
        test.server.flush()
        let lines = transport.takeLines()
        #expect(lines.count == 2)
        #expect(lines.first?["params"]?["state"]?["key"] == ["other"])
        #expect(lines.last?["id"] == 3)
        #expect(lines.last?["result"]?["data"] == 2)
    }
}
