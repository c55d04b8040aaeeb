// Dispatch through in-memory sessions: the method table against the OpenRPC document, batches,
// client cancellation of a waiting request, answers to server-to-client fetches, and limits.

import QuerydJSON
import Testing

@testable import QuerydServer

@Suite struct DispatchTests {
    @Test func methodTableMatchesTheOpenRPCDocument() throws {
        let test = TestServer { $0.testMethods = true }
        let document = try JSONParser.parse(OpenRPCDocument.text)
        let documented = Set((document["methods"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        let served = Set(test.server.methods.names + Server.protocolNotifications)
        #expect(documented == served)
        // Gated methods disappear from rpc.discover when their switch is off.
        let plain = TestServer { $0.manualClock = false }
        let discovered = plain.connect().call("rpc.discover")
        let names = Set((discovered?["methods"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        #expect(!names.contains("clock.advance"))
        #expect(!names.contains("test.sum"))
        #expect(names.contains("query.fetch"))
        #expect(names.contains("$/cancelRequest"))
    }

    @Test func mixedBatchAnswersInOneLine() {
        let client = TestServer { $0.testMethods = true }.connect()
        let lines = client.send(
            #"[{"jsonrpc":"2.0","method":"test.sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method":"nope"},"#
                + #"{"foo":"boo"},{"jsonrpc":"2.0","method":"foo.get","id":"5"}]"# + "\n")
        #expect(lines.count == 1)
        let replies = lines[0].arrayValue ?? []
        #expect(replies.count == 3)
        #expect(replies[0]["result"] == 7)
        #expect(replies[1]["error"]?["code"] == -32600)
        #expect(replies[1]["id"] == .null)
        #expect(replies[2]["error"]?["code"] == -32601)
    }

    @Test func notificationOnlyBatchWritesNothing() {
        let client = TestServer().connect()
        let lines = client.send(#"[{"jsonrpc":"2.0","method":"server.ping"},{"jsonrpc":"2.0","method":"x"}]"# + "\n")
        #expect(lines.isEmpty)
    }

    @Test func cancelRequestAnswersTheWaitingFetchAtOnce() {
        let test = TestServer()
        let fetcher = test.connect()
        let caller = test.connect()
        #expect(fetcher.call("fetcher.register", ["key": ["k"], "cancellable": true])?["fetcher"] == 1)
        let pending = caller.send(#"{"jsonrpc":"2.0","id":"f","method":"query.fetch","params":{"key":["k"]}}"# + "\n")
        #expect(pending.isEmpty)
        let fetch = fetcher.drain()
        #expect(fetch.count == 1)
        #expect(fetch[0]["method"] == "fetch")
        let cancelled = caller.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"f"}}"# + "\n")
        #expect(cancelled.count == 1)
        #expect(cancelled[0]["id"] == "f")
        #expect(cancelled[0]["error"]?["code"] == -32800)
        // Nobody else wants the fetch and the fetcher is cancellable: it is told, and the query reverts.
        let told = fetcher.drain()
        #expect(told.count == 1)
        #expect(told[0]["method"] == "$/cancelRequest")
        #expect(told[0]["params"]?["id"] == fetch[0]["id"])
        #expect(caller.call("query.state", ["key": ["k"]])?["status"] == "pending")
        #expect(caller.call("query.state", ["key": ["k"]])?["fetchStatus"] == "idle")
    }

    @Test func fetcherAnswerSettlesEveryWaiterOnce() {
        let test = TestServer()
        let fetcher = test.connect()
        let a = test.connect()
        let b = test.connect()
        _ = fetcher.call("fetcher.register", ["key": []])
        #expect(a.request("query.fetch", ["key": ["x", 1]]).isEmpty)
        #expect(b.request("query.fetch", ["key": ["x", 1]]).isEmpty)
        let requests = fetcher.drain()
        #expect(requests.count == 1)
        let id = requests[0]["id"]!
        fetcher.send(JSONValue.object(["jsonrpc": "2.0", "id": id, "result": ["data": [1, 2]]]).encodedString + "\n")
        let answerA = a.drain()
        let answerB = b.drain()
        #expect(answerA.count == 1 && answerB.count == 1)
        #expect(answerA[0]["result"]?["data"] == [1, 2])
        #expect(answerB[0]["result"]?["data"] == [1, 2])
        // A second answer to the same id is ignored; the daemon stays healthy.
        fetcher.send(JSONValue.object(["jsonrpc": "2.0", "id": id, "result": ["data": 3]]).encodedString + "\n")
        #expect(a.call("query.get", ["key": ["x", 1]])?["data"] == [1, 2])
    }

    @Test func invalidParamsNameTheField() {
        let client = TestServer().connect()
        let reply = client.request("query.get", ["key": "todos"])
        #expect(reply.first?["error"]?["code"] == -32602)
        #expect(reply.first?["error"]?["data"]?["field"] == "key")
        let unknown = client.request("query.get", ["key": ["a"], "kee": 1])
        #expect(unknown.first?["error"]?["data"]?["field"] == "kee")
        let option = client.request("query.fetch", ["key": ["a"], "options": ["staleTime": "soon"]])
        #expect(option.first?["error"]?["data"]?["field"] == "options.staleTime")
    }

    @Test func oversizedLineIsRefusedAndClosesTheConnection() {
        let test = TestServer { $0.maxMessageBytes = 64 }
        let client = test.connect()
        let reply = client.send(String(repeating: "x", count: 100) + "\n")
        #expect(reply.count == 2)
        #expect(reply[0]["error"]?["code"] == -32600)
        // Then the reason of the close.
        #expect(reply[1]["method"] == "$/closing")
        #expect(reply[1]["params"]?["limit"] == "max-message-bytes")
        #expect(client.transport.closeRequested)
        // Other connections are unaffected.
        #expect(test.connect().call("server.ping") == [:])
    }

    @Test func subscribeReplyPrecedesItsFirstPush() {
        let test = TestServer()
        let client = test.connect()
        let lines = client.send(
            #"{"jsonrpc":"2.0","id":1,"method":"query.subscribe","params":{"key":["s"],"options":{"enabled":false}}}"#
                + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"query.set","params":{"key":["s"],"data":1}}"# + "\n")
        #expect(lines.count == 3)
        #expect(lines[0]["id"] == 1)
        #expect(lines[1]["method"] == "query.changed")
        #expect(lines[1]["params"]?["state"]?["data"] == 1)
        #expect(lines[2]["id"] == 2)
    }

    @Test func aPushQueuedAgainAfterSetOptionsFollowsItsReply() {
        let client = TestServer().connect()
        let subscribe =
            #"{"jsonrpc":"2.0","id":1,"method":"query.subscribe","params":{"key":["o"],"options":{"enabled":false}}}"#
        let set2 = #"{"jsonrpc":"2.0","id":2,"method":"query.set","params":{"key":["o"],"data":2}}"#
        let options =
            #"{"jsonrpc":"2.0","id":3,"method":"query.setOptions","params":{"subscription":1,"options":{"enabled":false}}}"#
        let set4 = #"{"jsonrpc":"2.0","id":4,"method":"query.set","params":{"key":["o"],"data":4}}"#
        let lines = client.send([subscribe, set2, options, set4].joined(separator: "\n") + "\n")
        let order = lines.map { $0["id"].map { "reply \($0)" } ?? "push \($0["params"]?["state"]?["data"] ?? .null)" }
        #expect(order == ["reply 1", "reply 2", "reply 3", "push 4", "reply 4"])
    }
}
