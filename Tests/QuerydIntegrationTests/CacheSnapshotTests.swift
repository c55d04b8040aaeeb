// `cache.dehydrate` / `cache.hydrate` and the mutation cache's `mutations.list` paging,
// `mutations.clear` and `meta`, over the wire against the real daemon on the manual clock.

import QuerydJSON
import Testing

@Suite("Cache snapshots and the mutation cache")
struct CacheSnapshotTests {
    @Test("a snapshot moves between daemons: newer data wins, a subscriber is notified, other versions are refused")
    func dehydrateThenHydrate() throws {
        var snapshot: JSONValue = nil
        try withDaemon(["--manual-clock"]) { _, source in
            _ = try source.result("query.set", ["key": ["todos"], "data": ["buy milk"]])
            try source.advance(1000, to: clockStart + 1000)
            _ = try source.result("query.set", ["key": ["user"], "data": "old name"])
            snapshot = try source.result("cache.dehydrate")
        }
        expectJSON(
            snapshot,
            [
                "version": 1, "mutations": [],
                "queries": [
                    [
                        "key": ["todos"], "dehydratedAt": .number(JSONNumber(clockStart + 1000)),
                        "state": [
                            "data": ["buy milk"], "dataUpdateCount": 1,
                            "dataUpdatedAt": .number(JSONNumber(clockStart)),
                            "error": nil, "errorUpdateCount": 0, "errorUpdatedAt": 0, "failureCount": 0,
                            "failureReason": nil, "fetchStatus": "idle", "isInvalidated": false, "status": "success",
                        ],
                    ],
                    [
                        "key": ["user"], "dehydratedAt": .number(JSONNumber(clockStart + 1000)),
                        "state": [
                            "data": "old name", "dataUpdateCount": 1,
                            "dataUpdatedAt": .number(JSONNumber(clockStart + 1000)), "error": nil,
                            "errorUpdateCount": 0, "errorUpdatedAt": 0, "failureCount": 0, "failureReason": nil,
                            "fetchStatus": "idle", "isInvalidated": false, "status": "success",
                        ],
                    ],
                ],
            ])
        try withDaemon(["--manual-clock"]) { daemon, target in
            try target.advance(5000, to: clockStart + 5000)
            _ = try target.result("query.set", ["key": ["user"], "data": "new name"])
            let watcher = try daemon.connect()
            let view = try watcher.result("query.subscribe", ["key": ["todos"], "options": ["enabled": false]])
            let subscription = view.member("subscription")!
            #expect(view.member("state")?.member("status") == "pending")
            #expect(try target.result("cache.hydrate", ["snapshot": snapshot]) == ["queries": 1, "mutations": 0])
            let pushed = try watcher.nextNotification(method: "query.changed").member("params")
            #expect(pushed?.member("subscription") == subscription)
            let state = pushed?.member("state")
            #expect(state?.member("data") == ["buy milk"])
            #expect(state?.member("status") == "success")
            #expect(state?.member("fetchStatus") == "idle")
            #expect(state?.member("dataUpdatedAt") == .number(JSONNumber(clockStart)))
            #expect(state?.member("isFetched") == true)
            // The cached name is newer than the snapshot's: kept.
            #expect(try target.result("query.get", ["key": ["user"]]).member("data") == "new name")
            // Hydrating again writes nothing: no entry is newer now.
            #expect(try target.result("cache.hydrate", ["snapshot": snapshot]) == ["queries": 0, "mutations": 0])
            try watcher.expectSilence()

            let refused = try target.call("cache.hydrate", ["snapshot": ["version": 2, "queries": []]])
            #expect(refused.errorCode == -32602)
            expectJSON(
                refused.member("error")?.member("data") ?? nil,
                [
                    "field": "snapshot.version", "reason": "unsupported snapshot version; supported: 1",
                    "supported": [1], "requested": 2,
                ])
            let malformed = try target.call(
                "cache.hydrate",
                ["snapshot": ["version": 1, "queries": [["key": ["x"], "state": ["status": "success"]]]]])
            #expect(malformed.member("error")?.member("data")?.member("field") == "snapshot.queries[0].state.data")
            #expect(try target.result("query.get", ["key": ["x"]]) == nil)
        }
    }

    @Test("mutations.list pages by cursor; meta is echoed; mutations.clear cancels the paused and forgets the settled")
    func mutationCacheVisibility() throws {
        try withDaemon(["--manual-clock"]) { daemon, server in
            _ = try server.result("mutator.register", ["key": ["m"]])
            let caller = try daemon.connect()
            for index in 1...3 {
                let id = try caller.sendRequest(
                    "mutation.run",
                    [
                        "key": ["m"], "variables": .number(JSONNumber(index)),
                        "options": ["meta": ["n": .number(JSONNumber(index))]],
                    ])
                let mutate = try server.nextRequest(method: "mutate")
                try server.respond(id: mutate.member("id")!, result: ["data": "ok"])
                #expect(try caller.awaitResponse(id: id).member("result") == ["data": "ok"])
            }
            let first = try caller.result("mutations.list", ["cursor": nil, "limit": 2])
            #expect(first.member("mutations")?.asArray?.map { $0.member("meta") } == [["n": 1], ["n": 2]])
            #expect(first.member("nextCursor") == "2")
            let last = try caller.result("mutations.list", ["cursor": "2", "limit": 2])
            #expect(last.member("mutations")?.asArray?.map { $0.member("id") } == [3])
            #expect(!last.has("nextCursor"))
            #expect(try caller.result("mutations.list").asArray?.count == 3)
            for (params, field) in [
                (["cursor": "x"], "cursor"), (["cursor": "-1"], "cursor"), (["cursor": nil, "limit": 0], "limit"),
                (["limit": 1], "limit"),
            ] as [(JSONValue, String)] {
                let reply = try caller.call("mutations.list", params)
                #expect(reply.member("error")?.member("data")?.member("field") == .string(field), "\(params)")
            }

            _ = try caller.result("network.setOnline", ["online": false])
            let paused = try caller.sendRequest("mutation.run", ["key": ["m"], "variables": 4])
            #expect(try server.result("mutations.list", ["filter": ["status": "pending"]]).asArray?.count == 1)
            #expect(try server.result("mutations.clear") == ["cleared": 4])
            let answer = try caller.awaitResponse(id: paused)
            #expect(answer.errorCode == -32003)
            #expect(answer.member("error")?.member("data") == ["reason": "cleared", "retryable": false])
            #expect(try server.result("mutations.list") == [])
            _ = try caller.result("network.setOnline", ["online": true])
            try server.expectSilence()
        }
    }
}
