// Per-connection limits through in-memory sessions: batch size, subscriptions, registrations and
// waiting requests, each refused with the exact -32006 reply and freed again when released.

import QuerydJSON
import Testing

@testable import QuerydServer

@Suite struct LimitsTests {
    /// The -32006 reply for request `id` refused by limit `flag` (retryable: sent again unchanged it may pass).
    static func limitReply(_ id: JSONValue, _ flag: String, max: Int, retryable: Bool = false) -> JSONValue {
        [
            "jsonrpc": "2.0", "id": id,
            "error": [
                "code": -32006, "message": "Limit exceeded",
                "data": ["limit": .string(flag), "max": .number(JSONNumber(max)), "retryable": .bool(retryable)],
            ],
        ]
    }

    @Test func aBatchOverTheLimitIsRefusedWholeAndNothingRuns() {
        let test = TestServer { $0.maxBatch = 2 }
        let client = test.connect()
        let member = #"{"jsonrpc":"2.0","id":1,"method":"query.subscribe","params":{"key":["a"]}}"#
        let lines = client.send("[\(member),\(member),\(member)]\n")
        #expect(lines == [LimitsTests.limitReply(nil, "max-batch", max: 2)])
        #expect(client.call("server.stats")?["subscriptions"] == 0)
        // At the limit, the batch runs.
        let accepted = client.send(
            #"[{"jsonrpc":"2.0","id":1,"method":"server.ping"},{"jsonrpc":"2.0","id":2,"method":"server.ping"}]"# + "\n"
        )
        #expect(
            accepted == [[["jsonrpc": "2.0", "id": 1, "result": [:]], ["jsonrpc": "2.0", "id": 2, "result": [:]]]])
    }

    @Test func subscriptionsPerConnectionAreCappedAndFreedByUnsubscribe() {
        let test = TestServer { $0.maxSubscriptionsPerConnection = 2 }
        let client = test.connect()
        #expect(client.call("query.subscribe", ["key": ["a"]])?["subscription"] == 1)
        #expect(client.call("query.subscribe", ["key": ["b"]])?["subscription"] == 2)
        // A refused call with bad params does not count either way.
        #expect(client.request("query.unsubscribe", ["subscription": 99]).first?["error"]?["code"] == -32005)
        let refused = client.request("query.subscribe", ["key": ["c"]])
        #expect(refused == [LimitsTests.limitReply(4, "max-subscriptions-per-connection", max: 2)])
        // Another connection has its own allowance.
        #expect(test.connect().call("query.subscribe", ["key": ["c"]])?["subscription"] == 3)
        #expect(client.call("query.unsubscribe", ["subscription": 1]) == [:])
        #expect(client.call("query.subscribe", ["key": ["c"]])?["subscription"] == 4)
        #expect(client.request("query.subscribe", ["key": ["d"]]).first?["error"]?["code"] == -32006)
        #expect(client.call("server.stats")?["subscriptions"] == 3)
    }

    @Test func registrationsPerConnectionAreCappedAndFreedByUnregister() {
        let test = TestServer { $0.maxRegistrationsPerConnection = 1 }
        let client = test.connect()
        #expect(client.call("fetcher.register", ["key": ["a"]])?["fetcher"] == 1)
        let refused = client.request("fetcher.register", ["key": ["b"]])
        #expect(refused == [LimitsTests.limitReply(2, "max-registrations-per-connection", max: 1)])
        #expect(client.call("fetcher.unregister", ["fetcher": 1]) == [:])
        #expect(client.call("fetcher.register", ["key": ["b"]])?["fetcher"] == 2)
        #expect(client.call("server.stats")?["fetchers"] == 1)
    }

    @Test func waitingRequestsPerConnectionAreCapped() {
        let test = TestServer { $0.maxPendingRequestsPerConnection = 2 }
        let client = test.connect()
        #expect(client.request("query.fetch", ["key": ["a"]]).isEmpty)
        #expect(client.request("query.fetch", ["key": ["b"]]).isEmpty)
        let refused = client.request("query.fetch", ["key": ["c"]])
        #expect(refused == [LimitsTests.limitReply(3, "max-pending-requests-per-connection", max: 2, retryable: true)])
        // The refused request's wait was withdrawn: two waiters remain.
        #expect(client.call("server.stats")?["pendingRequests"] == 2)
        // Requests answered at once are not affected by the limit.
        #expect(client.call("server.ping") == [:])
        // Cancelling one frees its slot.
        let cancelled = client.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"# + "\n")
        #expect(cancelled.first?["error"]?["code"] == -32800)
        #expect(client.request("query.fetch", ["key": ["d"]]).isEmpty)
        #expect(client.call("server.stats")?["pendingRequests"] == 2)
    }

    @Test func closingAConnectionReleasesItsHoldings() {
        let test = TestServer { $0.maxSubscriptionsPerConnection = 1 }
        let first = test.connect()
        #expect(first.call("query.subscribe", ["key": ["a"]])?["subscription"] == 1)
        first.session.transportClosed()
        let second = test.connect()
        #expect(second.call("server.stats")?["subscriptions"] == 0)
        #expect(second.call("query.subscribe", ["key": ["a"]])?["subscription"] == 2)
    }
}
