// Infinite queries on three real `queryd serve --cluster` nodes: the first page, fetchNextPage and the
// refetch of every page, each called on every node at once, reach one fetcher once per page in the
// fleet (the page lease), and every node ends with the same pages.

import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Cluster: infinite queries", .serialized)
struct ClusterInfiniteTests {
    @Test("first page, next page and a refetch of all pages, called on 3 nodes at once: one fetcher call per page")
    func onePageFetchInTheFleet() throws {
        let cluster = try TestCluster()
        let clients = try cluster.connectAll()
        let fetchers = try cluster.registerFetchers(["feed"])
        let key: JSONValue = ["feed"]
        let infinite: JSONValue = ["infinite": ["initialPageParam": 0]]

        /// Sends `method` 5 times on every node; waits for the one page fetch in the fleet (held while
        /// no other fetcher is called, so every node's attempt waits on the lease), answers it, and
        /// returns every reply.
        func callEverywhere(_ method: String, _ params: JSONValue, page: (param: Int, data: String)) throws
            -> [JSONValue]
        {
            var ids: [[JSONValue]] = [[], [], []]
            for _ in 0..<5 {
                for node in 0..<3 { ids[node].append(try clients[node].sendRequest(method, params)) }
            }
            let (winner, request) = try TestCluster.nextFetch(fetchers)
            #expect(
                request.member("params")?.member("pageParam") == .number(JSONNumber(page.param))
                    && request.member("params")?.member("direction") == "forward", "\(request)")
            try Self.expectSilence(fetchers)
            try fetchers[winner].respond(
                id: request.member("id") ?? nil,
                result: ["data": .string(page.data), "nextPageParam": .number(JSONNumber(page.param + 1))])
            return try (0..<3).flatMap { node in
                try ids[node].map { try clients[node].awaitResponse(id: $0).member("result") ?? nil }
            }
        }

        let first = try callEverywhere("query.fetch", ["key": key, "options": infinite], page: (0, "p0"))
        for reply in first { #expect(reply.member("data") == ["pages": ["p0"], "pageParams": [0]], "\(reply)") }
        try Self.expectSilence(fetchers)

        // A subscriber on every node (two of them on nodes that wait for the page lease) sees what it
        // sees on one host: the next page being fetched, then both pages.
        var subscribers: [LineClient] = []
        for node in cluster.nodes {
            let subscriber = try node.connect()
            _ = try subscriber.result(
                "query.subscribe",
                ["key": key, "options": ["staleTime": "Infinity", "infinite": ["initialPageParam": 0]]])
            subscribers.append(subscriber)
        }
        let next = try callEverywhere("query.fetchNextPage", ["key": key, "cancelRefetch": false], page: (1, "p1"))
        let twoPages: JSONValue = ["pages": ["p0", "p1"], "pageParams": [0, 1]]
        for reply in next { #expect(reply.member("data") == twoPages, "\(reply)") }
        for subscriber in subscribers {
            let fetching = try Self.nextState(subscriber)
            #expect(fetching.member("isFetchingNextPage") == true && fetching.member("data") == first[0].member("data"))
            let settled = try Self.nextState(subscriber)
            #expect(settled.member("isFetchingNextPage") == false && settled.member("data") == twoPages, "\(settled)")
        }
        try Self.expectSilence(fetchers)

        // A refetch of both pages on every node: each page is fetched once, in order.
        var refetch: [[JSONValue]] = [[], [], []]
        for node in 0..<3 {
            refetch[node].append(try clients[node].sendRequest("query.fetch", ["key": key, "options": infinite]))
        }
        for (param, data) in [(0, "r0"), (1, "r1")] {
            let (winner, request) = try TestCluster.nextFetch(fetchers)
            #expect(request.member("params")?.member("pageParam") == .number(JSONNumber(param)), "\(request)")
            try Self.expectSilence(fetchers)
            try fetchers[winner].respond(
                id: request.member("id") ?? nil,
                result: ["data": .string(data), "nextPageParam": .number(JSONNumber(param + 1))])
        }
        let refetched: JSONValue = ["pages": ["r0", "r1"], "pageParams": [0, 1]]
        for node in 0..<3 {
            let reply = try clients[node].awaitResponse(id: refetch[node][0]).member("result") ?? nil
            #expect(reply.member("data") == refetched, "\(reply)")
            let state = try clients[node].result("query.state", ["key": key])
            #expect(state.member("data") == refetched && state.member("hasNextPage") == true, "\(state)")
        }
        try Self.expectSilence(fetchers)
    }

    /// The state of `subscriber`'s next `query.changed` push.
    static func nextState(_ subscriber: LineClient) throws -> JSONValue {
        try subscriber.nextNotification(method: "query.changed").member("params")?.member("state") ?? nil
    }

    /// No fetcher gets another request.
    static func expectSilence(_ fetchers: [LineClient]) throws {
        for fetcher in fetchers { try fetcher.expectSilence(for: 0.2) }
    }
}
