// Infinite queries against the real daemon (manual clock): a paginated fetcher driven over the
// wire with cursor-based and numbered pages, forward and backward, maxPages, an invalidation that
// refetches the whole list in order, failures reported in the state, and refused mixed use.

import QuerydJSON
import Testing

/// The state object of an infinite query: `queryState` plus the six paging flags.
private func pagedState(
    _ key: JSONValue, status: String = "success", fetchStatus: String = "idle", pages: [JSONValue],
    params: [JSONValue], dataUpdateCount: Int, next: Bool, previous: Bool = false, fetchingNext: Bool = false,
    fetchingPrevious: Bool = false, nextError: Bool = false, previousError: Bool = false,
    error: JSONValue = nil, errorUpdateCount: Int = 0, isInvalidated: Bool = false
) -> JSONValue {
    var state = queryState(
        key, status: status, fetchStatus: fetchStatus, data: ["pages": .array(pages), "pageParams": .array(params)],
        dataUpdatedAt: clockStart, dataUpdateCount: dataUpdateCount, error: error,
        errorUpdatedAt: errorUpdateCount > 0 ? clockStart : 0, errorUpdateCount: errorUpdateCount,
        failureCount: errorUpdateCount, failureReason: errorUpdateCount > 0 ? error : nil,
        isInvalidated: isInvalidated)
    guard case .object(var members) = state else { return state }
    members["hasNextPage"] = .bool(next)
    members["hasPreviousPage"] = .bool(previous)
    members["isFetchingNextPage"] = .bool(fetchingNext)
    members["isFetchingPreviousPage"] = .bool(fetchingPrevious)
    members["isFetchNextPageError"] = .bool(nextError)
    members["isFetchPreviousPageError"] = .bool(previousError)
    members["isRefetching"] = .bool(fetchStatus == "fetching" && !fetchingNext && !fetchingPrevious)
    state = .object(members)
    return state
}

extension LineClient {
    /// Waits for a page `fetch` request with exactly these params; returns its id.
    fileprivate func expectPageFetch(
        fetcher: JSONValue, key: JSONValue, pageParam: JSONValue, direction: String, attempt: Int = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONValue {
        let request = try nextRequest(method: "fetch")
        expectJSON(
            request,
            [
                "jsonrpc": "2.0", "id": "$number", "method": "fetch",
                "params": [
                    "fetcher": fetcher, "key": key, "attempt": .number(JSONNumber(attempt)), "pageParam": pageParam,
                    "direction": .string(direction),
                ],
            ],
            sourceLocation: sourceLocation)
        return request.member("id") ?? nil
    }

    /// Answers a page request: `{data, nextPageParam?, previousPageParam?}` (nil: member absent).
    fileprivate func answerPage(id: JSONValue, _ page: JSONValue, next: JSONValue? = nil, previous: JSONValue? = nil)
        throws
    {
        var answer: [String: JSONValue] = ["data": page]
        if let next { answer["nextPageParam"] = next }
        if let previous { answer["previousPageParam"] = previous }
        try respond(id: id, result: .object(answer))
    }

    /// The `state` of the next `query.changed` notification.
    fileprivate func nextChangedState() throws -> JSONValue {
        try nextNotification(method: "query.changed").member("params")?.member("state") ?? nil
    }
}

@Suite("Infinite queries")
struct InfiniteQueryTests {
    @Test("cursor pages: first page, next and previous pages, the end of the list, and a no-op past it")
    func cursorPages() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["posts"])
            let client = try daemon.connect()
            let key: JSONValue = ["posts", "cursor"]
            let subscribed = try client.result(
                "query.subscribe", ["key": key, "options": ["infinite": ["initialPageParam": "c5"]]])
            var first = queryState(key, fetchStatus: "fetching")
            if case .object(var members) = first {
                for flag in [
                    "hasNextPage", "hasPreviousPage", "isFetchingNextPage", "isFetchingPreviousPage",
                    "isFetchNextPageError", "isFetchPreviousPageError",
                ] { members[flag] = false }
                first = .object(members)
            }
            expectJSON(subscribed, ["subscription": "$number", "state": first])
            let sub = subscribed.member("subscription")!

            let p5 = try fetcher.expectPageFetch(fetcher: fid, key: key, pageParam: "c5", direction: "forward")
            try fetcher.answerPage(id: p5, ["items": ["e", "f"]], next: "c6", previous: "c4")
            expectJSON(
                try client.nextChangedState(),
                pagedState(
                    key, pages: [["items": ["e", "f"]]], params: ["c5"], dataUpdateCount: 1, next: true, previous: true)
            )

            // fetchNextPage: isFetchingNextPage is pushed while it runs; the reply is the settled state.
            let nextID = try client.sendRequest("query.fetchNextPage", ["subscription": sub])
            expectJSON(
                try client.nextChangedState(),
                pagedState(
                    key, fetchStatus: "fetching", pages: [["items": ["e", "f"]]], params: ["c5"], dataUpdateCount: 1,
                    next: true, previous: true, fetchingNext: true))
            let p6 = try fetcher.expectPageFetch(fetcher: fid, key: key, pageParam: "c6", direction: "forward")
            try fetcher.answerPage(id: p6, ["items": ["g"]], previous: "c5")
            let twoPages = pagedState(
                key, pages: [["items": ["e", "f"]], ["items": ["g"]]], params: ["c5", "c6"], dataUpdateCount: 2,
                next: false, previous: true)
            expectResult(try client.awaitResponse(id: nextID), twoPages, id: nextID)
            expectJSON(try client.nextChangedState(), twoPages)

            // No next page: answered at once with the current state, no fetch.
            expectResult(try client.call("query.fetchNextPage", ["subscription": sub]), twoPages, id: "$number")
            try fetcher.expectSilence()

            // fetchPreviousPage prepends.
            let previousID = try client.sendRequest("query.fetchPreviousPage", ["key": key])
            let p4 = try fetcher.expectPageFetch(fetcher: fid, key: key, pageParam: "c4", direction: "backward")
            try fetcher.answerPage(id: p4, ["items": ["c", "d"]], next: "c5")
            let threePages = pagedState(
                key, pages: [["items": ["c", "d"]], ["items": ["e", "f"]], ["items": ["g"]]],
                params: ["c4", "c5", "c6"], dataUpdateCount: 3, next: false, previous: false)
            expectResult(try client.awaitResponse(id: previousID), threePages, id: previousID)
            expectResult(try client.call("query.fetchPreviousPage", ["subscription": sub]), threePages, id: "$number")
            try fetcher.expectSilence()
        }
    }

    @Test("a null nextPageParam ends the list like an absent one")
    func nullParamEndsTheList() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["posts"])
            let client = try daemon.connect()
            let key: JSONValue = ["posts", "null-end"]
            let callID = try client.sendRequest(
                "query.fetch", ["key": key, "options": ["infinite": ["initialPageParam": nil]]])
            let first = try fetcher.expectPageFetch(fetcher: fid, key: key, pageParam: nil, direction: "forward")
            try fetcher.respond(
                id: first, result: ["data": ["only"], "nextPageParam": nil, "previousPageParam": nil])
            let onePage = pagedState(key, pages: [["only"]], params: [nil], dataUpdateCount: 1, next: false)
            expectResult(try client.awaitResponse(id: callID), onePage, id: callID)
            expectResult(try client.call("query.fetchNextPage", ["key": key]), onePage, id: "$number")
            expectResult(try client.call("query.fetchPreviousPage", ["key": key]), onePage, id: "$number")
            try fetcher.expectSilence()
        }
    }

    @Test("numbered pages with maxPages 3, then an invalidation refetches the kept pages one after another")
    func numberedPagesWithMaxPagesAndInvalidate() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["numbers"])
            let client = try daemon.connect()
            let key: JSONValue = ["numbers"]
            let options: JSONValue = ["infinite": ["initialPageParam": 1, "maxPages": 3]]
            let subscribed = try client.result("query.subscribe", ["key": key, "options": options])
            let sub = subscribed.member("subscription")!
            /// Serves page `n` (`{n, label}`; next n + 1; previous n - 1 down to 1), after checking
            /// that no other request came with it.
            func serve(_ n: Int, _ direction: String, label: String = "") throws {
                let id = try fetcher.expectPageFetch(
                    fetcher: fid, key: key, pageParam: .number(JSONNumber(n)), direction: direction)
                try fetcher.expectSilence()
                try fetcher.answerPage(
                    id: id, ["n": .number(JSONNumber(n)), "label": .string(label)], next: .number(JSONNumber(n + 1)),
                    previous: n > 1 ? .number(JSONNumber(n - 1)) : nil)
            }
            func page(_ n: Int, _ label: String = "") -> JSONValue {
                ["n": .number(JSONNumber(n)), "label": .string(label)]
            }
            try serve(1, "forward")
            for n in 2...4 {
                let id = try client.sendRequest("query.fetchNextPage", ["subscription": sub])
                try serve(n, "forward")
                _ = try client.awaitResponse(id: id)
            }
            let kept = pagedState(
                key, pages: [page(2), page(3), page(4)], params: [2, 3, 4], dataUpdateCount: 4, next: true,
                previous: true)
            expectJSON(try client.result("query.state", ["key": key]), kept)

            let backID = try client.sendRequest("query.fetchPreviousPage", ["subscription": sub])
            try serve(1, "backward")
            let back = pagedState(
                key, pages: [page(1), page(2), page(3)], params: [1, 2, 3], dataUpdateCount: 5, next: true,
                previous: false)
            expectResult(try client.awaitResponse(id: backID), back, id: backID)

            // Invalidate: the three kept pages are refetched in order, each after the previous answer.
            let control = try daemon.connect()
            expectJSON(
                try control.result("queries.invalidate", ["filter": ["key": ["numbers"]]]), ["matched": 1])
            for n in 1...3 { try serve(n, "forward", label: "fresh") }
            try fetcher.expectSilence()
            let refreshed = pagedState(
                key, pages: [page(1, "fresh"), page(2, "fresh"), page(3, "fresh")], params: [1, 2, 3],
                dataUpdateCount: 6, next: true, previous: false)
            expectJSON(try control.result("query.state", ["key": key]), refreshed)
        }
    }

    @Test("a failing next page is reported in the state; mixed use of a key and bad params are -32602")
    func failuresAndRefusals() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["f"])
            let client = try daemon.connect()
            let key: JSONValue = ["f", "paged"]
            let loadID = try client.sendRequest(
                "query.fetch", ["key": key, "options": ["infinite": ["initialPageParam": 0]]])
            let first = try fetcher.expectPageFetch(fetcher: fid, key: key, pageParam: 0, direction: "forward")
            try fetcher.answerPage(id: first, "p0", next: 1)
            _ = try client.awaitResponse(id: loadID)

            let nextID = try client.sendRequest("query.fetchNextPage", ["key": key])
            let failing = try fetcher.expectPageFetch(fetcher: fid, key: key, pageParam: 1, direction: "forward")
            try fetcher.respondError(id: failing, code: 503, message: "Unavailable")
            let error = fetchFailed(["code": 503, "message": "Unavailable"])
            expectResult(
                try client.awaitResponse(id: nextID),
                pagedState(
                    key, status: "error", pages: ["p0"], params: [0], dataUpdateCount: 1, next: true, nextError: true,
                    error: error, errorUpdateCount: 1, isInvalidated: true),
                id: nextID)

            // Ordinary use of the infinite key, and paging of an ordinary key, are refused.
            for (method, params) in [
                ("query.fetch", ["key": key] as JSONValue),
                ("query.subscribe", ["key": key]),
                ("query.set", ["key": key, "data": "flat"]),
            ] {
                let reply = try client.call(method, params)
                expectError(reply, code: -32602, id: reply.member("id") ?? nil)
            }
            _ = try client.result("query.set", ["key": ["f", "plain"], "data": 1])
            _ = try client.result("query.subscribe", ["key": ["f", "plain"], "options": ["staleTime": "Infinity"]])
            let refused = try client.call("query.fetchNextPage", ["key": ["f", "plain"]])
            expectError(refused, code: -32602, id: refused.member("id") ?? nil)
            #expect(refused.member("error")?.member("data")?.member("field") == "options.infinite", "\(refused)")
            let both = try client.call("query.fetchNextPage", ["key": key, "subscription": 1])
            expectError(both, code: -32602, id: both.member("id") ?? nil)
            let unknownMember = try client.call("query.fetchNextPage", ["key": key, "pages": 2])
            expectError(unknownMember, code: -32602, id: unknownMember.member("id") ?? nil)
            expectResult(try client.call("query.fetchNextPage", ["key": ["f", "absent"]]), nil, id: "$number")
            try fetcher.expectSilence()
        }
    }
}
