// Fetchers that misbehave, through in-memory sessions: answering twice, answering ids they were
// never sent (or another connection's), malformed answers, garbage lines, and a caller vanishing
// mid-batch. Every waiter ends exactly once and nothing else is disturbed.

import QuerydJSON
import Testing

@testable import QuerydServer

@Suite struct FaultTests {
    /// A fetcher registered for ["k"] and a caller waiting on `query.fetch` for it; returns the fetch request id.
    static func pendingFetch(_ test: TestServer) -> (fetcher: TestClient, caller: TestClient, request: JSONValue) {
        let fetcher = test.connect()
        let caller = test.connect()
        #expect(fetcher.call("fetcher.register", ["key": ["k"]])?["fetcher"] == 1)
        #expect(caller.request("query.fetch", ["key": ["k"]]).isEmpty)
        let fetch = fetcher.drain()
        #expect(fetch.count == 1)
        return (fetcher, caller, fetch.first?["id"] ?? nil)
    }

    static func respond(_ client: TestClient, id: JSONValue, result: JSONValue) -> [JSONValue] {
        client.send(JSONValue.object(["jsonrpc": "2.0", "id": id, "result": result]).encodedString + "\n")
    }

    @Test func aSecondAnswerToTheSameRequestIsIgnored() {
        let test = TestServer()
        let (fetcher, caller, request) = FaultTests.pendingFetch(test)
        #expect(FaultTests.respond(fetcher, id: request, result: ["data": 1]).isEmpty)
        let replies = caller.drain()
        #expect(replies.count == 1)
        #expect(replies.first?["result"]?["data"] == 1)
        #expect(FaultTests.respond(fetcher, id: request, result: ["data": 2]).isEmpty)
        #expect(caller.drain().isEmpty)
        #expect(caller.call("query.get", ["key": ["k"]])?["data"] == 1)
    }

    @Test func answersToUnknownIdsAreIgnoredAndTheFetchGoesOn() {
        let test = TestServer()
        let (fetcher, caller, request) = FaultTests.pendingFetch(test)
        #expect(FaultTests.respond(fetcher, id: 999, result: ["data": "wrong"]).isEmpty)
        #expect(FaultTests.respond(fetcher, id: "x", result: ["data": "wrong"]).isEmpty)
        #expect(caller.drain().isEmpty)
        #expect(FaultTests.respond(fetcher, id: request, result: ["data": "right"]).isEmpty)
        #expect(caller.drain().first?["result"]?["data"] == "right")
    }

    @Test func anotherConnectionCannotAnswerAFetchersRequest() {
        let test = TestServer()
        let (fetcher, caller, request) = FaultTests.pendingFetch(test)
        let intruder = test.connect()
        #expect(FaultTests.respond(intruder, id: request, result: ["data": "forged"]).isEmpty)
        #expect(caller.drain().isEmpty)
        #expect(FaultTests.respond(fetcher, id: request, result: ["data": "genuine"]).isEmpty)
        #expect(caller.drain().first?["result"]?["data"] == "genuine")
    }

    @Test func aMalformedErrorAnswerFailsTheAttemptInsteadOfHanging() {
        let test = TestServer()
        let (fetcher, caller, request) = FaultTests.pendingFetch(test)
        let answer = JSONValue.object(["jsonrpc": "2.0", "id": request, "error": ["code": "bad"]]).encodedString
        #expect(fetcher.send(answer + "\n").isEmpty)
        let replies = caller.drain()
        #expect(
            replies == [
                [
                    "jsonrpc": "2.0", "id": 1,
                    "error": [
                        "code": -32001, "message": "Fetch failed",
                        "data": [
                            "code": -32600, "message": "Malformed response",
                            "data": ["reason": "error must be an object with an integer code and a string message"],
                        ],
                    ],
                ]
            ])
    }

    @Test func aResultWithoutDataIsAFailedAttempt() {
        let test = TestServer()
        let (fetcher, caller, request) = FaultTests.pendingFetch(test)
        #expect(FaultTests.respond(fetcher, id: request, result: 42).isEmpty)
        let reply = caller.drain().first
        #expect(reply?["error"]?["code"] == -32001)
        #expect(reply?["error"]?["data"] == ["code": -32602, "message": "data is undefined"])
    }

    @Test func garbageFromAFetcherIsAnsweredAndItsFetchStillCompletes() {
        let test = TestServer()
        let (fetcher, caller, request) = FaultTests.pendingFetch(test)
        let garbage = fetcher.send("\u{1}\u{2}garbage\n")
        #expect(garbage.count == 1)
        #expect(garbage.first?["error"]?["code"] == -32700)
        #expect(garbage.first?["id"] == .null)
        #expect(FaultTests.respond(fetcher, id: request, result: ["data": true]).isEmpty)
        #expect(caller.drain().first?["result"]?["data"] == true)
    }

    @Test func aWaitingMethodInABatchIsRefusedAndStartsNothing() {
        let test = TestServer()
        let fetcher = test.connect()
        #expect(fetcher.call("fetcher.register", ["key": ["k"], "cancellable": true])?["fetcher"] == 1)
        let caller = test.connect()
        let batch =
            #"[{"jsonrpc":"2.0","id":1,"method":"query.fetch","params":{"key":["k"]}},"#
            + #"{"jsonrpc":"2.0","id":2,"method":"server.ping"}]"#
        let reply = caller.send(batch + "\n")
        // One line at once: the fetch refused (-32600 with its id), the ping answered beside it.
        #expect(reply.count == 1)
        #expect(reply.first?[0]?["id"] == 1)
        #expect(reply.first?[0]?["error"]?["code"] == -32600)
        #expect(reply.first?[1] == ["jsonrpc": "2.0", "id": 2, "result": [:]])
        // Nothing ran: no fetch was sent, nothing waits, no query was made.
        #expect(fetcher.drain().isEmpty)
        #expect(fetcher.call("server.stats")?["pendingRequests"] == 0)
        #expect(fetcher.call("server.stats")?["queries"] == 0)
    }
}
