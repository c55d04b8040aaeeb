// Count subscriptions in memory (issue 16 §10): the server recounts once per flush, so the changes
// of one read reach a watcher as one `count.changed` with the latest count, after the reply that
// started the watch; a watch ends with `count.unsubscribe` or its connection.

import QuerydJSON
import Testing

@testable import QuerydServer

@Suite struct CountWatchTests {
    private func changed(_ lines: [JSONValue]) -> [JSONValue?] {
        lines.filter { $0["method"] == "count.changed" }.map { $0["params"] }
    }

    @Test func theChangesOfOneReadAreOnePushWithTheLatestCount() {
        let test = TestServer()
        let watcher = test.connect()
        let writer = test.connect()
        #expect(watcher.call("queries.count", ["subscribe": true]) == ["count": 0, "subscription": 1])
        writer.send(
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["a"],"data":1}}"# + "\n"
                + #"{"jsonrpc":"2.0","id":2,"method":"query.set","params":{"key":["b"],"data":2}}"# + "\n"
                + #"{"jsonrpc":"2.0","id":3,"method":"query.set","params":{"key":["c"],"data":3}}"# + "\n")
        #expect(changed(watcher.drain()) == [["subscription": 1, "count": 3]])
        // Nothing moved: nothing is sent.
        writer.call("query.set", ["key": ["a"], "data": 4])
        #expect(watcher.drain().isEmpty)
    }

    @Test func theReplyThatStartsAWatchComesBeforeItsFirstPush() {
        let test = TestServer()
        let client = test.connect()
        let lines = client.send(
            #"[{"jsonrpc":"2.0","id":1,"method":"queries.count","params":{"subscribe":true}},"#
                + #"{"jsonrpc":"2.0","id":2,"method":"query.set","params":{"key":["a"],"data":1}}]"# + "\n")
        #expect(lines.count == 2)
        #expect(lines.first?[0]?["result"] == ["count": 0, "subscription": 1])
        #expect(lines.last?["params"] == ["subscription": 1, "count": 1])
    }

    @Test func aWatchEndsWithCountUnsubscribeAndWithItsConnection() {
        let test = TestServer()
        let watcher = test.connect()
        let other = test.connect()
        let writer = test.connect()
        #expect(watcher.call("mutations.count", ["subscribe": true])?["subscription"] == 1)
        #expect(other.call("queries.count", ["subscribe": true])?["subscription"] == 2)
        let refused = other.request("count.unsubscribe", ["subscription": 1]).first?["error"]
        #expect(refused?["code"] == -32005)
        #expect(watcher.call("count.unsubscribe", ["subscription": 1]) == [:])
        other.session.transportClosed()
        #expect(test.server.countWatches.isEmpty)
        writer.call("query.set", ["key": ["a"], "data": 1])
        #expect(watcher.drain().isEmpty)
        #expect(other.drain().isEmpty)
    }
}
