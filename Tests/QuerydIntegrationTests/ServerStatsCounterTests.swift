// `server.stats`' counters over the wire: requests and errors by method (methods of the table
// only), pushes of every kind, fetches started and settled with their durations in the fixed
// buckets, and a watcher seeing a subscription change a query's observers.

import QuerydJSON
import Testing

@Suite("server.stats counters")
struct ServerStatsCounterTests {
    @Test func requestsAndErrorsAreCountedByMethodAndPushesOfEveryKind() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            _ = try client.result("query.set", ["key": ["a"], "data": 1])
            let refused = try client.call("query.set", ["data": 1])
            expectError(refused, code: -32602, id: refused.member("id") ?? nil)
            let unknown = try client.call("no.such.method", [:])
            expectError(unknown, code: -32601, id: unknown.member("id") ?? nil)

            let watcher = try daemon.connect()
            _ = try watcher.result("cache.watch", [:])
            /// The types of the events of the next `cache.changed`.
            func events() throws -> [String] {
                let params = try watcher.nextNotification(method: "cache.changed").member("params")
                return (params?.member("events")?.asArray ?? []).map { $0.member("type")?.asString ?? "?" }
            }
            let subscriber = try daemon.connect()
            _ = try subscriber.result("query.subscribe", ["key": ["a"], "options": ["staleTime": 60000]])
            #expect(try events() == ["query.changed"])  // its observer
            _ = try client.result("query.set", ["key": ["a"], "data": 2])
            _ = try subscriber.nextNotification(method: "query.changed")
            #expect(try events() == ["query.changed"])
            let mutations = try daemon.connect()
            _ = try mutations.result("mutation.subscribe", [:])
            let mutator = try daemon.connect()
            _ = try mutator.result("mutator.register", ["key": ["m"]])
            #expect(try events() == ["mutator.registered"])
            let run = try client.sendRequest("mutation.run", ["key": ["m"], "variables": 1])
            let mutate = try mutator.nextRequest(method: "mutate")
            #expect(try events() == ["mutation.started"])
            try mutator.respond(id: mutate.member("id")!, result: ["data": 2])
            _ = try client.awaitResponse(id: run)
            _ = try mutations.nextNotification(method: "mutation.changed")
            _ = try mutations.nextNotification(method: "mutation.changed")
            #expect(try events() == ["mutation.settled"])

            let stats = try client.result("server.stats", [:])
            let methods = stats.member("methods")
            #expect(methods?.member("query.set") == ["requests": 3, "errors": 1])
            #expect(methods?.member("server.stats") == ["requests": 1, "errors": 0])
            #expect(methods?.member("no.such.method") == nil, "only the methods of the table are counted")
            // query.changed 1, cache.changed 5, mutation.changed 2.
            #expect(stats.member("pushes") == 8, "\(stats)")
        }
    }

    @Test func fetchesStartedAndSettledWithTheirDurationInItsBucket() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["d"])
            let caller = try daemon.connect()
            let callID = try caller.sendRequest("query.fetch", ["key": ["d"]])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["d"])
            let control = try daemon.connect()
            let during = try control.result("server.stats", [:]).member("fetches")
            #expect(during?.member("started") == 1 && during?.member("settled") == 0)
            try control.advance(30, to: clockStart + 30)
            try fetcher.respond(id: request, result: ["data": "ok"])
            _ = try caller.awaitResponse(id: callID)
            let fetches = try control.result("server.stats", [:]).member("fetches")
            #expect(fetches?.member("started") == 1 && fetches?.member("settled") == 1)
            let bounds = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000]
            let buckets = JSONValue.array(
                bounds.map { bound in
                    ["le": .number(JSONNumber(bound)), "count": bound < 30 ? 0 : 1]
                })
            #expect(fetches?.member("durationMs") == ["buckets": buckets, "sum": 30])
        }
    }

    @Test func aSubscriptionComingAndGoingIsAQueryChangeForWatchers() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            _ = try client.result("query.set", ["key": ["o"], "data": 1])
            let watcher = try daemon.connect()
            _ = try watcher.result("cache.watch", [:])
            let subscribed = try client.result("query.subscribe", ["key": ["o"], "options": ["staleTime": 60000]])
            let subscription = try #require(subscribed.member("subscription"))
            func observers() throws -> [String] {
                let events = try watcher.nextNotification(method: "cache.changed").member("params")?.member("events")
                return (events?.asArray ?? []).map { event in
                    let count = event.member("state")?.member("observers")?.asInt ?? -1
                    return "\(event.member("type")?.asString ?? "?") observers=\(count)"
                }
            }
            let added = try observers()
            #expect(added == ["query.changed observers=1"], "\(added)")
            _ = try client.result("query.unsubscribe", ["subscription": subscription])
            let removed = try observers()
            #expect(removed == ["query.changed observers=0"], "\(removed)")
        }
    }
}
