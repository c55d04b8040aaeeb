// `queries.setData` (TanStack's setQueriesData) and `query.set` with `ifVersion` (compare-and-set,
// -32009 with the current version) over the wire (issue 16 §9).

import QuerydJSON
import Testing

@Suite("Bulk and conditional writes")
struct BulkAndConditionalWriteTests {
    @Test("queries.setData writes data or a merge patch to every cached match and notifies subscribers")
    func setDataWritesEveryMatch() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            _ = try client.result("query.set", ["key": ["t", 1], "data": ["n": 1]])
            _ = try client.result("query.set", ["key": ["t", 2], "data": ["n": 2]])
            _ = try client.result("query.set", ["key": ["u"], "data": 0])
            let watcher = try daemon.connect()
            let subscription =
                try watcher.result("query.subscribe", ["key": ["t", 2], "options": ["staleTime": 60_000]])
                .member("subscription") ?? nil
            let patched = try client.result(
                "queries.setData", ["filter": ["key": ["t"]], "mergePatch": ["done": true], "updatedAt": 5])
            #expect(patched == ["matched": 2])
            expectJSON(
                try client.result("query.state", ["key": ["t", 1]]),
                successState(["t", 1], data: ["n": 1, "done": true], at: 5, count: 2))
            var pushed = successState(["t", 2], data: ["n": 2, "done": true], at: 5, count: 2)
            if case .object(var members) = pushed {
                members["isStale"] = true
                pushed = .object(members)
            }
            expectJSON(
                try watcher.nextNotification(method: "query.changed"),
                [
                    "jsonrpc": "2.0", "method": "query.changed",
                    "params": ["subscription": subscription, "state": pushed],
                ])
            #expect(
                try client.result("query.get", ["key": ["u"]]) == [
                    "data": 0, "dataUpdatedAt": .number(JSONNumber(clockStart)),
                ])
            // The same data for every match; no match creates nothing.
            #expect(try client.result("queries.setData", ["filter": [:], "data": "x"]) == ["matched": 3])
            #expect(try client.result("query.get", ["key": ["u"]]).member("data") == "x")
            #expect(try client.result("queries.setData", ["filter": ["key": ["none"]], "data": 1]) == ["matched": 0])
            #expect(try client.result("query.state", ["key": ["none"]]) == .null)
        }
    }

    @Test("queries.setData is all or nothing, and its params are checked")
    func setDataRefusals() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            _ = try client.result("query.set", ["key": ["i", "a"], "data": 1])
            _ = try client.result(
                "query.set", ["key": ["i", "b"], "data": ["pages": [1], "pageParams": [0]]])
            // An infinite query (made by a subscribe with `infinite`) refuses data of another shape.
            _ = try client.result(
                "query.subscribe",
                ["key": ["i", "b"], "options": ["infinite": ["initialPageParam": 0], "enabled": false]])
            let refused = try client.call("queries.setData", ["filter": ["key": ["i"]], "data": 2])
            #expect(refused.errorCode == -32602, "\(refused)")
            #expect(try client.result("query.get", ["key": ["i", "a"]]).member("data") == 1)
            for params: JSONValue in [
                ["data": 1], ["filter": [:]], ["filter": [:], "data": 1, "mergePatch": [:]],
                ["filter": ["type": "bogus"], "data": 1], ["filter": [:], "data": 1, "extra": 1],
            ] {
                let reply = try client.call("queries.setData", params)
                #expect(reply.errorCode == -32602, "\(params) -> \(reply)")
            }
        }
    }

    @Test("query.set with ifVersion writes only at that version; a conflict is -32009 with the current version")
    func compareAndSet() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            // 0: only while the key is not cached.
            let created = try client.result("query.set", ["key": ["cas"], "data": 1, "ifVersion": 0])
            let version = created.member("version")?.asInt ?? -1
            #expect(version > 0)
            let conflict = try client.call("query.set", ["key": ["cas"], "data": 2, "ifVersion": 0])
            expectJSON(
                conflict,
                [
                    "jsonrpc": "2.0", "id": "$number",
                    "error": [
                        "code": -32009, "message": "Version conflict",
                        "data": ["key": ["cas"], "version": .number(JSONNumber(version))],
                    ],
                ])
            let stale = try client.call(
                "query.set", ["key": ["cas"], "mergePatch": ["x": 1], "ifVersion": .number(JSONNumber(version - 1))])
            #expect(stale.errorCode == -32009)
            #expect(try client.result("query.get", ["key": ["cas"]]).member("data") == 1)
            let written = try client.result(
                "query.set", ["key": ["cas"], "data": 3, "ifVersion": .number(JSONNumber(version))])
            #expect(written.member("data") == 3)
            #expect((written.member("version")?.asInt ?? 0) > version)
            let missing = try client.call("query.set", ["key": ["absent"], "data": 1, "ifVersion": 5])
            #expect(missing.member("error")?.member("data") == ["key": ["absent"], "version": 0])
            #expect(try client.result("query.state", ["key": ["absent"]]) == .null)
            let bad = try client.call("query.set", ["key": ["cas"], "data": 1, "ifVersion": -1])
            #expect(bad.errorCode == -32602)
        }
    }
}
