// Infinite queries on three real `queryd serve --cluster` nodes: the first page, fetchNextPage and the
// refetch of every page, each called on every node at once, reach one fetcher once per page in the
// fleet (the page lease), and every node ends with the same pages; the whole list one node settled
// serves another from Redis (its pages, links and dataUpdatedAt) until an invalidation.

import Glibc
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

    @Test("pages fetched on node A serve node B from Redis; after an invalidation on C each page is fetched once")
    func wholeListSharedThroughRedis() throws {
        let cluster = try TestCluster()
        let clients = try cluster.connectAll()
        let fetchers = try cluster.registerFetchers(["list"])
        let (a, b, c) = (clients[0], clients[1], clients[2])
        let key: JSONValue = ["list"]
        let options: JSONValue = ["staleTime": 60_000, "infinite": ["initialPageParam": 0]]

        /// Answers the next fetch in the fleet, which must ask for page `param`, with `data`.
        func answerPage(_ param: Int, _ data: String) throws {
            let (winner, request) = try TestCluster.nextFetch(fetchers)
            #expect(request.member("params")?.member("pageParam") == .number(JSONNumber(param)), "\(request)")
            try fetchers[winner].respond(
                id: request.member("id") ?? nil,
                result: ["data": .string(data), "nextPageParam": .number(JSONNumber(param + 1))])
        }

        // Node A loads pages 0 and 1.
        let load = try a.sendRequest("query.fetch", ["key": key, "options": options])
        try answerPage(0, "p0")
        _ = try a.awaitResponse(id: load)
        let next = try a.sendRequest("query.fetchNextPage", ["key": key])
        try answerPage(1, "p1")
        let onA = try a.awaitResponse(id: next).member("result") ?? nil
        let twoPages: JSONValue = ["pages": ["p0", "p1"], "pageParams": [0, 1]]
        #expect(onA.member("data") == twoPages, "\(onA)")
        let loadedAt = try #require(onA.member("dataUpdatedAt")?.asInt)
        usleep(200_000)

        // Node B subscribes: both pages come from Redis, with A's dataUpdatedAt and next page.
        let subscriber = try cluster.nodes[1].connect()
        _ = try subscriber.result("query.subscribe", ["key": key, "options": options])
        let served = try Self.nextState(subscriber)
        #expect(served.member("data") == twoPages && served.member("status") == "success", "\(served)")
        #expect(served.member("dataUpdatedAt")?.asInt == loadedAt && served.member("hasNextPage") == true)
        try Self.expectSilence(fetchers)

        // B's next page goes to a fetcher; the three pages B settles with serve node C.
        let third = try b.sendRequest("query.fetchNextPage", ["key": key])
        try answerPage(2, "p2")
        let onB = try b.awaitResponse(id: third).member("result") ?? nil
        let threePages: JSONValue = ["pages": ["p0", "p1", "p2"], "pageParams": [0, 1, 2]]
        #expect(onB.member("data") == threePages, "\(onB)")
        usleep(200_000)
        let onC = try c.result("query.fetch", ["key": key, "options": options])
        #expect(onC.member("data") == threePages && onC.member("dataUpdatedAt") == onB.member("dataUpdatedAt"))
        try Self.expectSilence(fetchers)

        // An invalidation on C: B's subscription refetches, and each of its pages is fetched once in the
        // fleet (the copy B stored is stale by the invalidation).
        #expect(try c.result("queries.invalidate", ["filter": ["key": key]]) == ["matched": 1])
        try answerPage(0, "r0")
        try answerPage(1, "r1")
        try answerPage(2, "r2")
        let refetched: JSONValue = ["pages": ["r0", "r1", "r2"], "pageParams": [0, 1, 2]]
        let onBAgain = try TestCluster.waitForState(b, key, "refetched") {
            $0.member("data") == refetched && $0.member("fetchStatus") == "idle"
        }
        try Self.expectSilence(fetchers)
        // That refetch's list, stored after the invalidation, serves C (whose copy was invalidated).
        usleep(200_000)
        let onCAgain = try c.result("query.fetch", ["key": key, "options": options])
        #expect(onCAgain.member("data") == refetched, "\(onCAgain)")
        #expect(onCAgain.member("dataUpdatedAt") == onBAgain.member("dataUpdatedAt"))
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
