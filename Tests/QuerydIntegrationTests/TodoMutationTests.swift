// The todo-list example against the real daemon (manual clock): one process is the fetcher and
// mutator of ["todos"], two others subscribe to the list. An "add" mutation shows its optimistic
// item to both subscribers at once; when the mutator fails, both see the exact old list again;
// when it succeeds, the list is invalidated and refetched.

import QuerydJSON
import Testing

@Suite("Todo mutations")
struct TodoMutationTests {
    private static let list: JSONValue = ["todos", "list"]

    /// The next `query.changed` state on `client` for `subscription`.
    private func nextState(_ client: LineClient, _ subscription: JSONValue) throws -> JSONValue {
        let changed = try client.nextNotification(method: "query.changed")
        #expect(changed.member("params")?.member("subscription") == subscription, "\(changed)")
        return changed.member("params")?.member("state") ?? nil
    }

    /// Runs an "add" mutation with an optimistic item and invalidation of the list; returns its id.
    private func add(_ caller: LineClient, _ title: String, list: JSONValue) throws -> JSONValue {
        try caller.sendRequest(
            "mutation.run",
            [
                "key": ["todos", "add"], "variables": ["title": .string(title)],
                "options": [
                    "optimistic": [["key": Self.list, "data": list]], "invalidate": [["key": Self.list]],
                ],
            ])
    }

    @Test("optimistic item at once for two subscribers; rollback on failure; refetch on success")
    func todoList() throws {
        try withDaemon(["--manual-clock"]) { daemon, server in
            let fetcher = try server.registerFetcher(["todos"])
            let mutator = try server.result("mutator.register", ["key": ["todos"]]).member("mutator")!
            let alice = try daemon.connect()
            let bob = try daemon.connect()
            let aliceSub = try alice.result("query.subscribe", ["key": Self.list]).member("subscription")!
            let load = try server.expectFetch(fetcher: fetcher, key: Self.list)
            try server.respond(id: load, result: ["data": ["buy milk"]])
            let loaded = successState(Self.list, data: ["buy milk"])
            expectJSON(try nextState(alice, aliceSub), loaded)
            let bobView = try bob.result("query.subscribe", ["key": Self.list, "options": ["staleTime": 60000]])
            let bobSub = bobView.member("subscription")!
            expectJSON(bobView.member("state") ?? nil, successState(Self.list, data: ["buy milk"]).withFresh)

            // A failing add: both see the optimistic item, then the old list exactly.
            try alice.advance(1000, to: clockStart + 1000)
            let caller = try daemon.connect()
            let failing = try add(caller, "walk dog", list: ["buy milk", "walk dog"])
            let optimistic = queryState(
                Self.list, status: "success", data: ["buy milk", "walk dog"], dataUpdatedAt: clockStart + 1000,
                dataUpdateCount: 2)
            expectJSON(try nextState(alice, aliceSub), optimistic)
            expectJSON(try nextState(bob, bobSub), optimistic.withFresh)
            let request = try server.nextRequest(method: "mutate")
            expectJSON(
                request.member("params") ?? nil,
                ["mutator": mutator, "key": ["todos", "add"], "variables": ["title": "walk dog"], "attempt": 1])
            try server.respondError(id: request.member("id")!, code: 503, message: "store down")
            expectJSON(
                try caller.awaitResponse(id: failing),
                [
                    "jsonrpc": "2.0", "id": failing,
                    "error": [
                        "code": -32007, "message": "Mutation failed", "data": ["code": 503, "message": "store down"],
                    ],
                ])
            expectJSON(try nextState(alice, aliceSub), loaded)
            expectJSON(try nextState(bob, bobSub), loaded.withFresh)
            try server.expectSilence()

            // A succeeding add: the optimistic list stays until the refetch brings the server's.
            let succeeding = try add(caller, "call mom", list: ["buy milk", "call mom"])
            #expect(try nextState(alice, aliceSub).member("data") == ["buy milk", "call mom"])
            #expect(try nextState(bob, bobSub).member("data") == ["buy milk", "call mom"])
            let second = try server.nextRequest(method: "mutate")
            try server.respond(id: second.member("id")!, result: ["data": ["id": 2]])
            expectJSON(
                try caller.awaitResponse(id: succeeding),
                ["jsonrpc": "2.0", "id": succeeding, "result": ["data": ["id": 2]]])
            let refetching = try nextState(alice, aliceSub)
            #expect(refetching.member("fetchStatus") == "fetching" && refetching.member("isInvalidated") == true)
            let refetch = try server.expectFetch(fetcher: fetcher, key: Self.list)
            _ = try nextState(bob, bobSub)
            try server.respond(id: refetch, result: ["data": ["buy milk", "call mom"]])
            let final = try nextState(alice, aliceSub)
            #expect(final.member("fetchStatus") == "idle" && final.member("dataUpdateCount") == 3)
            #expect(try nextState(bob, bobSub).member("data") == ["buy milk", "call mom"])
            #expect(try caller.result("mutations.list", ["filter": ["status": "pending"]]) == [])
        }
    }
}

extension JSONValue {
    /// The same state seen by a subscription for which the data is fresh.
    fileprivate var withFresh: JSONValue {
        guard case .object(var members) = self else { return self }
        members["isStale"] = false
        return .object(members)
    }
}
