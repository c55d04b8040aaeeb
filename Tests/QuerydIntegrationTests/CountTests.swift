// `queries.count` and `mutations.count` (useIsFetching / useIsMutating), once and subscribed:
// `count.changed` when the count moves, one per loop turn, none after `count.unsubscribe` (issue 16 §10).

import QuerydJSON
import Testing

@Suite("Counts")
struct CountTests {
    @Test("queries.count counts the filter's matches; subscribed, count.changed follows the fetches")
    func queriesCount() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["f"])
            let watcher = try daemon.connect()
            _ = try watcher.result("query.set", ["key": ["f", 0], "data": 0])
            #expect(try watcher.result("queries.count", [:]) == ["count": 1])
            let fetching: JSONValue = ["filter": ["fetchStatus": "fetching"], "subscribe": true]
            let reply = try watcher.result("queries.count", fetching)
            let subscription = reply.member("subscription") ?? nil
            #expect(reply == ["count": 0, "subscription": subscription])
            let caller = try daemon.connect()
            _ = try caller.result("query.prefetch", ["key": ["f", 1]])
            _ = try caller.result("query.prefetch", ["key": ["f", 2]])
            let first = try fetcher.expectFetch(fetcher: fid, key: ["f", 1])
            let second = try fetcher.expectFetch(fetcher: fid, key: ["f", 2])
            func expectCount(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
                expectJSON(
                    try watcher.nextNotification(method: "count.changed"),
                    [
                        "jsonrpc": "2.0", "method": "count.changed",
                        "params": ["subscription": subscription, "count": .number(JSONNumber(count))],
                    ], sourceLocation: sourceLocation)
            }
            // Each prefetch was its own loop turn: 1, then 2.
            try expectCount(1)
            try expectCount(2)
            try fetcher.respond(id: first, result: ["data": 1])
            try expectCount(1)
            try watcher.expectSilence()
            #expect(try watcher.result("queries.count", ["filter": ["key": ["f"]]]) == ["count": 3])
            #expect(try watcher.result("count.unsubscribe", ["subscription": subscription]) == [:])
            try fetcher.respond(id: second, result: ["data": 2])
            try watcher.expectSilence()
            let again = try watcher.call("count.unsubscribe", ["subscription": subscription])
            #expect(again.errorCode == -32005, "\(again)")
        }
    }

    @Test("mutations.count counts mutations; subscribed, it follows a mutation's run")
    func mutationsCount() throws {
        try withDaemon(["--manual-clock"]) { daemon, mutator in
            _ = try mutator.result("mutator.register", ["key": ["m"]])
            let watcher = try daemon.connect()
            let reply = try watcher.result(
                "mutations.count", ["filter": ["status": "pending"], "subscribe": true])
            let subscription = reply.member("subscription") ?? nil
            #expect(reply == ["count": 0, "subscription": subscription])
            let runner = try daemon.connect()
            let run = try runner.sendRequest("mutation.run", ["key": ["m"], "variables": 1])
            let request = try mutator.nextRequest(method: "mutate")
            expectJSON(
                try watcher.nextNotification(method: "count.changed"),
                ["jsonrpc": "2.0", "method": "count.changed", "params": ["subscription": subscription, "count": 1]])
            try mutator.respond(id: request.member("id") ?? nil, result: ["data": "ok"])
            _ = try runner.awaitResponse(id: run)
            expectJSON(
                try watcher.nextNotification(method: "count.changed"),
                ["jsonrpc": "2.0", "method": "count.changed", "params": ["subscription": subscription, "count": 0]])
            #expect(try watcher.result("mutations.count", [:]) == ["count": 1])
            #expect(try watcher.result("mutations.count", ["filter": ["status": "success"]]) == ["count": 1])
            let bad = try watcher.call("mutations.count", ["filter": ["status": "done"]])
            #expect(bad.errorCode == -32602)
        }
    }

    @Test("a count subscription ends with its connection and counts against the subscription limit")
    func countSubscriptionLifetime() throws {
        try withDaemon(["--manual-clock", "--max-subscriptions-per-connection", "1"]) { daemon, client in
            let watcher = try daemon.connect()
            _ = try watcher.result("queries.count", ["subscribe": true])
            let refused = try watcher.call("queries.count", ["subscribe": true])
            #expect(refused.errorCode == -32006, "\(refused)")
            #expect(try watcher.result("queries.count", [:]) == ["count": 0])
            watcher.close()
            try client.waitForStats("connections", toBe: 1)
            _ = try client.result("query.set", ["key": ["k"], "data": 1])
            try client.expectHealthy()
        }
    }

    @Test("the count changes of one loop turn reach the client as one count.changed, none when undone")
    func countChangesCoalesce() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["b"])
            let watcher = try daemon.connect()
            let subscription =
                try watcher.result("queries.count", ["filter": ["fetchStatus": "fetching"], "subscribe": true])
                .member("subscription") ?? nil
            let all = try watcher.result("queries.count", ["subscribe": true]).member("subscription") ?? nil
            let caller = try daemon.connect()
            // One line, one loop turn: two fetches start, so the fetching count goes 0 -> 2 at once.
            try caller.send(
                #"[{"jsonrpc":"2.0","id":1,"method":"query.prefetch","params":{"key":["b",1]}},"#
                    + #"{"jsonrpc":"2.0","id":2,"method":"query.prefetch","params":{"key":["b",2]}}]"#)
            _ = try caller.readJSON()
            _ = try fetcher.expectFetch(fetcher: fid, key: ["b", 1])
            _ = try fetcher.expectFetch(fetcher: fid, key: ["b", 2])
            expectJSON(
                try watcher.nextNotification(method: "count.changed"),
                ["jsonrpc": "2.0", "method": "count.changed", "params": ["subscription": subscription, "count": 2]])
            expectJSON(
                try watcher.nextNotification(method: "count.changed"),
                ["jsonrpc": "2.0", "method": "count.changed", "params": ["subscription": all, "count": 2]])
            try watcher.expectSilence()
            // A query made and removed in one turn leaves the count where it was: nothing is sent.
            try caller.send(
                #"[{"jsonrpc":"2.0","id":3,"method":"query.set","params":{"key":["tmp"],"data":1}},"#
                    + #"{"jsonrpc":"2.0","id":4,"method":"queries.remove","params":{"filter":{"key":["tmp"]}}}]"#)
            _ = try caller.readJSON()
            try watcher.expectSilence()
        }
    }

    @Test("server.hello names the additions: the count methods and notification, cancelRefetch, ifVersion")
    func helloNamesTheAdditions() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            let capabilities = try client.result("server.hello", [:]).member("capabilities")
            guard case .array(let names)? = capabilities else {
                Issue.record("no capabilities: \(String(describing: capabilities))")
                return
            }
            for name: JSONValue in [
                "queries.count", "mutations.count", "count.unsubscribe", "queries.setData",
                "notification:count.changed", "param:cancelRefetch", "param:ifVersion",
            ] {
                #expect(names.contains(name), "\(name)")
            }
        }
    }
}
