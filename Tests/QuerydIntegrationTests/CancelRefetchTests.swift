// `cancelRefetch` on `queries.invalidate`, `queries.refetch` and `queries.reset` (issue 16 §3), as
// TanStack's `{cancelRefetch}` there: true (the default) replaces a fetch in flight, false joins it.
// Reset drops a fetch in flight whatever the flag (TanStack's `reset` cancels it), so its refetch
// has nothing to join.

import QuerydJSON
import Testing

@Suite("cancelRefetch on queries.*")
struct CancelRefetchTests {
    /// A subscribed query ["c"] with data 1 whose refetch (attempt 1 of a second fetch) is in flight.
    private struct Refetching {
        let fetcher: LineClient
        let watcher: LineClient
        let fetcherID: JSONValue
        let subscription: JSONValue
        let request: JSONValue
    }

    private func refetching(_ daemon: DaemonProcess, _ fetcher: LineClient) throws -> Refetching {
        let fid = try fetcher.registerFetcher(["c"])
        let watcher = try daemon.connect()
        let subscription = try watcher.result("query.subscribe", ["key": ["c"]]).member("subscription") ?? nil
        try fetcher.respond(id: try fetcher.expectFetch(fetcher: fid, key: ["c"]), result: ["data": 1])
        try expectPush(watcher, subscription, successState(["c"], data: 1))
        #expect(try watcher.result("queries.refetch", ["filter": ["key": ["c"]]]) == ["matched": 1])
        let request = try fetcher.expectFetch(fetcher: fid, key: ["c"])
        try expectPush(
            watcher, subscription,
            queryState(
                ["c"], status: "success", fetchStatus: "fetching", data: 1, dataUpdatedAt: clockStart,
                dataUpdateCount: 1))
        return Refetching(
            fetcher: fetcher, watcher: watcher, fetcherID: fid, subscription: subscription, request: request)
    }

    private func expectPush(
        _ watcher: LineClient, _ subscription: JSONValue, _ state: JSONValue,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        expectJSON(
            try watcher.nextNotification(method: "query.changed"),
            ["jsonrpc": "2.0", "method": "query.changed", "params": ["subscription": subscription, "state": state]],
            sourceLocation: sourceLocation)
    }

    @Test("queries.invalidate {cancelRefetch: false} joins the fetch in flight")
    func invalidateJoins() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let setup = try refetching(daemon, fetcher)
            let matched = try setup.watcher.result(
                "queries.invalidate", ["filter": ["key": ["c"]], "cancelRefetch": false])
            #expect(matched == ["matched": 1])
            try expectPush(
                setup.watcher, setup.subscription,
                queryState(
                    ["c"], status: "success", fetchStatus: "fetching", data: 1, dataUpdatedAt: clockStart,
                    dataUpdateCount: 1, isInvalidated: true))
            // Neither a $/cancelRequest nor a new fetch: the running one goes on.
            try fetcher.expectSilence()
            try fetcher.respond(id: setup.request, result: ["data": 2])
            try expectPush(setup.watcher, setup.subscription, successState(["c"], data: 2, count: 2))
            try setup.watcher.expectSilence()
        }
    }

    @Test("queries.refetch {cancelRefetch: false} joins the fetch in flight; the default replaces it")
    func refetchJoinsOrReplaces() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let setup = try refetching(daemon, fetcher)
            #expect(
                try setup.watcher.result("queries.refetch", ["filter": ["key": ["c"]], "cancelRefetch": false])
                    == ["matched": 1])
            try fetcher.expectSilence()
            try setup.watcher.expectSilence()
            // The default (true) replaces it: the running request is withdrawn and a new one sent.
            #expect(try setup.watcher.result("queries.refetch", ["filter": ["key": ["c"]]]) == ["matched": 1])
            expectJSON(
                try fetcher.nextNotification(method: "$/cancelRequest"),
                ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": setup.request]])
            let replacement = try fetcher.expectFetch(fetcher: setup.fetcherID, key: ["c"])
            try fetcher.respond(id: replacement, result: ["data": 3])
            try expectPush(setup.watcher, setup.subscription, successState(["c"], data: 3, count: 2))
        }
    }

    @Test("queries.reset {cancelRefetch: false} is accepted; reset drops the fetch in flight and refetches")
    func resetAcceptsCancelRefetch() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let setup = try refetching(daemon, fetcher)
            #expect(
                try setup.watcher.result("queries.reset", ["filter": ["key": ["c"]], "cancelRefetch": false])
                    == ["matched": 1])
            expectJSON(
                try fetcher.nextNotification(method: "$/cancelRequest"),
                ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": setup.request]])
            let refetch = try fetcher.expectFetch(fetcher: setup.fetcherID, key: ["c"])
            try expectPush(setup.watcher, setup.subscription, queryState(["c"], fetchStatus: "fetching"))
            try fetcher.respond(id: refetch, result: ["data": 4])
            try expectPush(setup.watcher, setup.subscription, successState(["c"], data: 4))
        }
    }

    @Test("cancelRefetch must be a boolean", arguments: ["queries.invalidate", "queries.refetch", "queries.reset"])
    func cancelRefetchIsChecked(method: String) throws {
        try withDaemon(["--manual-clock"]) { _, client in
            let reply = try client.call(method, ["cancelRefetch": "no"])
            #expect(reply.errorCode == -32602, "\(reply)")
            #expect(try client.result(method, ["cancelRefetch": false]) == ["matched": 0])
        }
    }
}
