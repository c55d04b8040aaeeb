// queries.setDefaults, queries.getDefaults and mutations.setDefaults over the wire (manual clock):
// the longest prefix wins, the entries sit above the fetchers' registration defaults and below
// the call's own options, mutation defaults drive mutation.run, and bad params are -32602.

import QuerydJSON
import Testing

@Suite("Defaults by prefix")
struct DefaultsMethodTests {
    @Test("query defaults: longest prefix wins over a shorter one and over fetcher defaults; the call wins over all")
    func queryDefaultsLayering() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.result(
                "fetcher.register", ["key": ["t"], "defaults": ["staleTime": 10, "retry": 0]]
            ).member("fetcher")!
            let client = try daemon.connect()
            #expect(try client.result("queries.setDefaults", ["key": ["t"], "options": ["staleTime": 100]]) == [:])
            #expect(
                try client.result("queries.setDefaults", ["key": ["t", "long"], "options": ["staleTime": 60000]])
                    == [:])
            #expect(
                try client.result("queries.getDefaults", ["key": ["t", "long", 1]]) == [
                    "queries": [
                        ["key": ["t"], "options": ["staleTime": 100]],
                        ["key": ["t", "long"], "options": ["staleTime": 60000]],
                    ],
                    "mutations": [],
                ])
            let keys: [JSONValue] = [["t", "long", 1], ["t", "short"]]
            for key in keys {
                _ = try client.result("query.subscribe", ["key": key])
                try fetcher.respond(id: try fetcher.expectFetch(fetcher: fid, key: key), result: ["data": 1])
                _ = try client.nextNotification(method: "query.changed")
            }
            // 50 ms on: stale for the fetcher's staleTime 10, fresh for the entries' 100 and 60000,
            // so a new subscriber makes no call.
            try client.advance(50, to: clockStart + 50)
            for key in keys {
                let again = try client.result("query.subscribe", ["key": key])
                #expect(again.member("state")?.member("isStale") == false, "\(key): \(again)")
            }
            try fetcher.expectSilence()
            // The call's own staleTime wins: 20 ms is over, so this subscribe refetches.
            _ = try client.result("query.subscribe", ["key": ["t", "long", 1], "options": ["staleTime": 20]])
            _ = try fetcher.expectFetch(fetcher: fid, key: ["t", "long", 1])
        }
    }

    @Test("mutation defaults: retry from the prefix's defaults; the run's own options win")
    func mutationDefaults() throws {
        try withDaemon(["--manual-clock"]) { daemon, mutator in
            _ = try mutator.result("mutator.register", ["key": ["m"]])
            let client = try daemon.connect()
            #expect(
                try client.result("mutations.setDefaults", ["key": ["m"], "options": ["retry": 1, "retryDelay": 10]])
                    == [:])
            let run = try client.sendRequest("mutation.run", ["key": ["m", "save"], "variables": 1])
            let first = try mutator.nextRequest(method: "mutate")
            try mutator.respondError(id: first.member("id")!, code: 503, message: "busy")
            try mutator.expectHealthy()
            try client.advance(10, to: clockStart + 10)
            let second = try mutator.nextRequest(method: "mutate")
            #expect(second.member("params")?.member("attempt") == 2)
            try mutator.respond(id: second.member("id")!, result: ["data": "ok"])
            expectJSON(try client.awaitResponse(id: run), ["jsonrpc": "2.0", "id": run, "result": ["data": "ok"]])

            let own = try client.sendRequest(
                "mutation.run", ["key": ["m", "save"], "variables": 2, "options": ["retry": false]])
            let only = try mutator.nextRequest(method: "mutate")
            try mutator.respondError(id: only.member("id")!, code: 503, message: "busy")
            #expect(try client.awaitResponse(id: own).errorCode == -32007)
            #expect(
                try client.result("queries.getDefaults", [:]) == [
                    "queries": [], "mutations": [["key": ["m"], "options": ["retry": 1, "retryDelay": 10]]],
                ])
            #expect(try client.result("mutations.setDefaults", ["key": ["m"], "options": [:]]) == [:])
            #expect(try client.result("queries.getDefaults", [:]) == ["queries": [], "mutations": []])
        }
    }

    @Test("bad params are -32602 naming the field")
    func badParams() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            let cases: [(String, JSONValue, String)] = [
                ("queries.setDefaults", ["key": "t", "options": [:]], "key"),
                ("queries.setDefaults", ["key": ["t"]], "options"),
                ("queries.setDefaults", ["key": ["t"], "options": ["staleTime": -1]], "options.staleTime"),
                ("queries.setDefaults", ["key": ["t"], "options": ["bogus": 1]], "options.bogus"),
                ("queries.setDefaults", ["key": ["t"], "options": [:], "extra": 1], "extra"),
                ("mutations.setDefaults", ["key": ["m"], "options": ["retry": "x"]], "options.retry"),
                ("mutations.setDefaults", ["key": ["m"], "options": 3], "options"),
                ("queries.getDefaults", ["key": "t"], "key"),
            ]
            for (method, params, field) in cases {
                let reply = try client.call(method, params)
                #expect(reply.errorCode == -32602, "\(method) \(params): \(reply)")
                #expect(reply.member("error")?.member("data")?.member("field") == .string(field), "\(reply)")
            }
            try client.expectHealthy()
        }
    }
}
