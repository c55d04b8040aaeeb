// Three real `queryd serve --cluster` nodes on one real redis-server: writes reach every node's
// subscribers, a herd over the fleet calls one fetcher, shared data keeps its dataUpdatedAt, and a
// cache hit never touches Redis.

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Cluster: shared cache", .serialized)
struct ClusterSharingTests {
    @Test("an invalidation and a write on node C reach a subscriber on node B, in order")
    func invalidationReachesAnotherNode() throws {
        let cluster = try TestCluster()
        let clients = try cluster.connectAll()
        let (b, c) = (clients[1], clients[2])
        _ = try c.result("query.set", ["key": ["todos"], "data": [1]])
        _ = try TestCluster.waitForState(b, ["todos"], "written by C") { $0.member("data") == [1] }
        let subscribed = try b.result("query.subscribe", ["key": ["todos"], "options": ["staleTime": "Infinity"]])
        let subscription = subscribed.member("subscription") ?? nil
        #expect(subscribed.member("state")?.member("data") == [1])

        // Each write is waited for before the next: two arriving in one loop turn would be pushed
        // as one (pushes coalesce per flush, on one host as here).
        func nextPush() throws -> JSONValue {
            let push = try b.nextNotification(method: "query.changed")
            #expect(push.member("params")?.member("subscription") == subscription)
            let state = push.member("params")?.member("state") ?? nil
            return ["data": state.member("data") ?? nil, "isInvalidated": state.member("isInvalidated") ?? nil]
        }
        #expect(
            try c.result("queries.invalidate", ["filter": ["key": ["todos"]], "refetchType": "none"]) == ["matched": 1])
        #expect(try nextPush() == ["data": [1], "isInvalidated": true])
        let set = try c.result("query.set", ["key": ["todos"], "data": [1, 2]])
        #expect(try nextPush() == ["data": [1, 2], "isInvalidated": false])
        let state = try b.result("query.state", ["key": ["todos"]])
        #expect(state.member("dataUpdatedAt") == set.member("dataUpdatedAt"))
        try b.expectSilence(for: 0.3)
        // A's copy matches too (it was not involved in either write).
        let onA = try TestCluster.waitForState(clients[0], ["todos"], "[1,2]") { $0.member("data") == [1, 2] }
        #expect(onA.member("isInvalidated") == false)
    }

    @Test("1,000 callers over 3 nodes on one cold key: exactly one fetcher call in the fleet")
    func fleetHerdCallsOneFetcher() throws {
        let cluster = try TestCluster()
        let clients = try cluster.connectAll()
        let fetchers = try cluster.registerFetchers(["herd"])
        // 334 + 333 + 333 callers, pipelined on each node.
        var ids: [[JSONValue]] = [[], [], []]
        for caller in 0..<1_000 {
            let node = caller % 3
            ids[node].append(try clients[node].sendRequest("query.fetch", ["key": ["herd"]]))
        }
        // One fetcher gets the request; the others nothing.
        let (winner, request) = try TestCluster.nextFetch(fetchers)
        usleep(300_000)
        try fetchers[winner].respond(id: request.member("id") ?? nil, result: ["data": "herd-data"])
        var answered = 0
        for node in 0..<3 {
            for id in ids[node] {
                let reply = try clients[node].awaitResponse(id: id)
                #expect(reply.member("result")?.member("data") == "herd-data", "\(reply)")
                answered += 1
            }
        }
        #expect(answered == 1_000)
        for fetcher in fetchers { try fetcher.expectSilence(for: 0.2) }
    }

    @Test(
        "an invalidation on node C with subscribers on every node: one refetch in the fleet, every subscriber gets it")
    func invalidationRefetchesOnceInTheFleet() throws {
        let cluster = try TestCluster()
        let clients = try cluster.connectAll()
        let fetchers = try cluster.registerFetchers(["feed"])
        _ = try clients[2].result("query.set", ["key": ["feed"], "data": 0])
        for client in clients {
            _ = try TestCluster.waitForState(client, ["feed"], "0") { $0.member("data") == 0 }
            _ = try client.result("query.subscribe", ["key": ["feed"], "options": ["staleTime": "Infinity"]])
        }
        #expect(try clients[2].result("queries.invalidate", ["filter": ["key": ["feed"]]]) == ["matched": 1])
        let (winner, request) = try TestCluster.nextFetch(fetchers)
        try fetchers[winner].respond(id: request.member("id") ?? nil, result: ["data": 1])
        for client in clients {
            let state = try TestCluster.waitForState(client, ["feed"], "refetched") {
                $0.member("data") == 1 && $0.member("fetchStatus") == "idle"
            }
            #expect(state.member("isInvalidated") == false)
        }
        for fetcher in fetchers { try fetcher.expectSilence(for: 0.3) }
    }

    @Test("shared data fresh for the caller: another node answers with it, its dataUpdatedAt kept, no fetcher called")
    func sharedDataKeepsDataUpdatedAt() throws {
        let cluster = try TestCluster(nodes: 2)
        let clients = try cluster.connectAll()
        let fetcherA = try cluster.nodes[0].connect()
        let fetcherB = try cluster.nodes[1].connect()
        let idA = try fetcherA.registerFetcher(["shared"])
        _ = try fetcherB.registerFetcher(["shared"])
        let call = try clients[0].sendRequest("query.fetch", ["key": ["shared", 1]])
        let request = try fetcherA.expectFetch(fetcher: idA, key: ["shared", 1])
        try fetcherA.respond(id: request, result: ["data": ["v": 1]])
        let onA = try clients[0].awaitResponse(id: call).member("result") ?? nil
        let updatedAt = try #require(onA.member("dataUpdatedAt")?.asInt)
        usleep(200_000)
        let onB = try clients[1].result("query.fetch", ["key": ["shared", 1], "options": ["staleTime": 60_000]])
        #expect(onB.member("data") == ["v": 1])
        #expect(onB.member("dataUpdatedAt")?.asInt == updatedAt)
        try fetcherB.expectSilence(for: 0.2)
        // Stale for a caller with staleTime 0: B takes the lease and calls its own fetcher.
        let refetch = try clients[1].sendRequest("query.fetch", ["key": ["shared", 1], "options": ["staleTime": 0]])
        let second = try fetcherB.nextRequest(method: "fetch")
        #expect(second.member("params")?.member("key") == ["shared", 1])
        try fetcherB.respond(id: second.member("id") ?? nil, result: ["data": ["v": 2]])
        let fetched = try clients[1].awaitResponse(id: refetch).member("result") ?? nil
        #expect(fetched.member("data") == ["v": 2])
        #expect((fetched.member("dataUpdatedAt")?.asInt ?? 0) > updatedAt)
        try fetcherA.expectSilence(for: 0.2)
    }

    @Test("an invalidation makes stale the shared copy of a key no node holds; a copy fetched after it is used")
    func invalidationCoversCopiesNoNodeHolds() throws {
        let cluster = try TestCluster()
        let clients = try cluster.connectAll()
        let fetcherA = try cluster.nodes[0].connect()
        let idA = try fetcherA.registerFetcher(["doc"])
        for id in 1...2 {
            let call = try clients[0].sendRequest("query.fetch", ["key": ["doc", .number(JSONNumber(id))]])
            let request = try fetcherA.expectFetch(fetcher: idA, key: ["doc", .number(JSONNumber(id))])
            try fetcherA.respond(id: request, result: ["data": .string("old-\(id)")])
            _ = try clients[0].awaitResponse(id: call)
        }
        // Node A dies: no node holds ["doc", 1] or ["doc", 2]; their shared copies stay in Redis.
        let fetcherC = try cluster.nodes[2].connect()
        _ = try fetcherC.registerFetcher(["doc"])
        cluster.nodes[0].kill9()
        // B and C forget A (3 s without its heartbeat); C's fetcher is the only one left.
        for client in clients[1...] {
            try TestCluster.waitUntilJoined(client, nodes: 2)
            try TestCluster.waitForStats(client, "fetchers", 1)
        }
        let infinite: JSONValue = ["staleTime": "Infinity"]

        // An invalidation of another key leaves the copies usable.
        #expect(try clients[1].result("queries.invalidate", ["filter": ["key": ["other"]]]) == ["matched": 0])
        let hit = try clients[1].result("query.fetch", ["key": ["doc", 1], "options": infinite])
        #expect(hit.member("data") == "old-1")
        try fetcherC.expectSilence(for: 0.2)

        // An invalidation of ["doc"] on C (which holds neither key) makes both copies stale.
        #expect(try clients[2].result("queries.invalidate", ["filter": ["key": ["doc"]]]) == ["matched": 0])
        let call = try clients[2].sendRequest("query.fetch", ["key": ["doc", 2], "options": infinite])
        let request = try fetcherC.nextRequest(method: "fetch")
        #expect(request.member("params")?.member("key") == ["doc", 2])
        try fetcherC.respond(id: request.member("id") ?? nil, result: ["data": "new-2"])
        #expect(try clients[2].awaitResponse(id: call).member("result")?.member("data") == "new-2")
        // The copy stored by that fetch, after the invalidation, serves node B.
        usleep(200_000)
        let fresh = try clients[1].result("query.fetch", ["key": ["doc", 2], "options": infinite])
        #expect(fresh.member("data") == "new-2")
        try fetcherC.expectSilence(for: 0.2)
    }

    @Test("cache hits on a --cluster node never reach Redis")
    func cacheHitsNeverTouchRedis() throws {
        let cluster = try TestCluster(nodes: 1)
        let client = try cluster.connectAll()[0]
        _ = try client.result("query.set", ["key": ["hit"], "data": 1])
        usleep(200_000)  // the write's shared copy is stored after the reply
        let before = try cluster.redis.command(["INFO", "commandstats"])
        for _ in 0..<500 { _ = try client.result("query.get", ["key": ["hit"]]) }
        let after = try cluster.redis.command(["INFO", "commandstats"])
        #expect(Self.calls(of: "get", in: before) == Self.calls(of: "get", in: after))
        #expect(Self.calls(of: "set", in: before) == Self.calls(of: "set", in: after))
    }

    /// `calls=N` of `cmdstat_<name>` in `INFO commandstats` (0 when never called).
    static func calls(of name: String, in info: String) -> Int {
        for line in info.split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_\(name):") {
            if let field = line.split(separator: ",").first, let value = field.split(separator: "=").last {
                return Int(value) ?? -1
            }
        }
        return 0
    }
}

@Suite("Cluster: mutations", .serialized)
struct ClusterMutationTests {
    @Test("a mutation's optimistic write, its rollback and its invalidation on node A reach a subscriber on node B")
    func mutationEffectsReachAnotherNode() throws {
        let cluster = try TestCluster(nodes: 2)
        let clients = try cluster.connectAll()
        let (a, b) = (clients[0], clients[1])
        let mutator = try cluster.nodes[0].connect()
        _ = try mutator.result("mutator.register", ["key": ["todos"]])
        _ = try a.result("query.set", ["key": ["todos", "list"], "data": ["milk"]])
        _ = try TestCluster.waitForState(b, ["todos", "list"], "[milk]") { $0.member("data") == ["milk"] }
        let subscribed = try b.result(
            "query.subscribe", ["key": ["todos", "list"], "options": ["staleTime": "Infinity"]])
        #expect(subscribed.member("state")?.member("data") == ["milk"])

        func nextPush() throws -> JSONValue {
            let state = try b.nextNotification(method: "query.changed").member("params")?.member("state") ?? nil
            return ["data": state.member("data") ?? nil, "isInvalidated": state.member("isInvalidated") ?? nil]
        }
        // Failure: the optimistic data, then exactly the state from before it.
        let failing = try a.sendRequest(
            "mutation.run",
            [
                "key": ["todos", "add"], "variables": "dog",
                "options": ["optimistic": [["key": ["todos", "list"], "data": ["milk", "dog"]]]],
            ])
        var request = try mutator.nextRequest(method: "mutate")
        #expect(try nextPush() == ["data": ["milk", "dog"], "isInvalidated": false])
        try mutator.respondError(id: request.member("id") ?? nil, code: 7, message: "no")
        #expect(try a.awaitResponse(id: failing).member("error") != nil)
        #expect(try nextPush() == ["data": ["milk"], "isInvalidated": false])

        // Success with an invalidation: the optimistic data stays, then it is invalidated.
        let succeeding = try a.sendRequest(
            "mutation.run",
            [
                "key": ["todos", "add"], "variables": "cat",
                "options": [
                    "optimistic": [["key": ["todos", "list"], "data": ["milk", "cat"]]],
                    "invalidate": [["key": ["todos", "list"]]],
                ],
            ])
        request = try mutator.nextRequest(method: "mutate")
        #expect(try nextPush() == ["data": ["milk", "cat"], "isInvalidated": false])
        try mutator.respond(id: request.member("id") ?? nil, result: ["data": "ok"])
        #expect(try a.awaitResponse(id: succeeding).member("result") != nil)
        #expect(try nextPush() == ["data": ["milk", "cat"], "isInvalidated": true])
        try b.expectSilence(for: 0.3)
    }
}

@Suite("Cluster: fetchers serve every node", .serialized)
struct ClusterForwardingTests {
    @Test("a fetch on node B with the only fetcher on node A: served, with fetch.progress relayed")
    func fetchServedByAnotherNodesFetcher() throws {
        let cluster = try TestCluster(nodes: 2)
        let clients = try cluster.connectAll()
        let fetcher = try cluster.nodes[0].connect()
        let id = try fetcher.registerFetcher(["remote"])
        try TestCluster.waitForStats(clients[1], "fetchers", 1)
        let subscribed = try clients[1].result("query.subscribe", ["key": ["remote", 1]])
        let subscription = subscribed.member("subscription") ?? nil
        let request = try fetcher.expectFetch(fetcher: id, key: ["remote", 1])
        try fetcher.notify("fetch.progress", ["id": request, "data": ["partial"]])
        let partial = try clients[1].nextNotification(method: "query.changed")
        #expect(partial.member("params")?.member("subscription") == subscription)
        #expect(partial.member("params")?.member("state")?.member("data") == ["partial"], "\(partial)")
        try fetcher.respond(id: request, result: ["data": ["whole"]])
        let done = try clients[1].nextNotification(method: "query.changed")
        #expect(done.member("params")?.member("state")?.member("data") == ["whole"], "\(done)")
        #expect(done.member("params")?.member("state")?.member("status") == "success")
    }

    @Test("a caller on node B withdrawing its fetch: node A's cancellable fetcher gets $/cancelRequest")
    func cancellationReachesTheOtherNodesFetcher() throws {
        let cluster = try TestCluster(nodes: 2)
        let clients = try cluster.connectAll()
        let fetcher = try cluster.nodes[0].connect()
        let id = try fetcher.registerFetcher(["remote"], cancellable: true)
        try TestCluster.waitForStats(clients[1], "fetchers", 1)
        let call = try clients[1].sendRequest("query.fetch", ["key": ["remote", 2]])
        let request = try fetcher.expectFetch(fetcher: id, key: ["remote", 2])
        try clients[1].notify("$/cancelRequest", ["id": call])
        #expect(try clients[1].awaitResponse(id: call).errorCode == -32800)
        let cancel = try fetcher.nextNotification(method: "$/cancelRequest")
        #expect(cancel.member("params")?.member("id") == request)
    }

    @Test("the serving node killed mid-fetch: the attempt fails over to a third node's fetcher")
    func failoverWhenTheServingNodeDies() throws {
        let cluster = try TestCluster(nodes: 3)
        let clients = try cluster.connectAll()
        let fetcherA = try cluster.nodes[0].connect()
        let idA = try fetcherA.registerFetcher(["remote"])
        try TestCluster.waitForStats(clients[2], "fetchers", 1)
        let call = try clients[2].sendRequest(
            "query.fetch", ["key": ["remote", 3], "options": ["retry": 1, "retryDelay": 0]])
        _ = try fetcherA.expectFetch(fetcher: idA, key: ["remote", 3])
        let fetcherB = try cluster.nodes[1].connect()
        let idB = try fetcherB.registerFetcher(["remote"])
        try TestCluster.waitForStats(clients[2], "fetchers", 2)
        cluster.nodes[0].kill9()
        // Node A's heartbeats stop; after 3 s its fetchers are gone on C, the attempt fails and is
        // retried on node B's fetcher.
        let killedAt = Clock.now
        let retry = try fetcherB.nextRequest(method: "fetch", timeout: 10)
        #expect(Clock.now - killedAt < 6, "failed over after \(Clock.now - killedAt) s")
        #expect(retry.member("params") == ["fetcher": idB, "key": ["remote", 3], "attempt": 2], "\(retry)")
        try fetcherB.respond(id: retry.member("id") ?? nil, result: ["data": "b"])
        #expect(try clients[2].awaitResponse(id: call, timeout: 10).member("result")?.member("data") == "b")
    }
}

extension TestCluster {
    /// Polls `server.stats` until `field` is `value` (within 5 s): the way to know a node has heard
    /// another node's fetchers (its heartbeat comes every second).
    static func waitForStats(_ client: LineClient, _ field: String, _ value: Int) throws {
        let deadline = Clock.now + 5
        var last: JSONValue = nil
        while Clock.now < deadline {
            last = try client.result("server.stats", [:])
            if last.member(field)?.asInt == value { return }
            usleep(20_000)
        }
        throw IntegrationError("server.stats.\(field) never became \(value): \(last.encodedString)")
    }
}

@Suite("Cluster: mutators serve every node", .serialized)
struct ClusterMutatorForwardingTests {
    @Test("a mutation run on node B with the only mutator on node A: served there, answered here")
    func mutationServedByAnotherNodesMutator() throws {
        let cluster = try TestCluster(nodes: 2)
        let clients = try cluster.connectAll()
        let mutator = try cluster.nodes[0].connect()
        let registered = try mutator.result("mutator.register", ["key": ["todos"]])
        let mutatorID = registered.member("mutator") ?? nil
        // Node B hears of the mutator with A's next heartbeat (one a second).
        usleep(1_500_000)
        let run = try clients[1].sendRequest("mutation.run", ["key": ["todos", "add"], "variables": ["title": "x"]])
        let request = try mutator.nextRequest(method: "mutate")
        #expect(
            request.member("params")
                == ["mutator": mutatorID, "key": ["todos", "add"], "variables": ["title": "x"], "attempt": 1],
            "\(request)")
        try mutator.respond(id: request.member("id") ?? nil, result: ["data": ["id": 7]])
        let answer = try clients[1].awaitResponse(id: run)
        #expect(answer.member("result") == ["data": ["id": 7]], "\(answer)")
        // A's own mutations are untouched: the attempt ran for B only.
        #expect(try clients[0].result("mutations.list", [:]) == [])
    }
}
