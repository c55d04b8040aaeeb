// Subscriptions on fetched keys: the exact query.changed sequence, and prefix invalidation that
// refetches only the active matches.

import QuerydJSON
import Testing

@Suite("Subscription scenarios")
struct SubscriptionScenarioTests {
    @Test("subscribe on a fetched key: pending/fetching in the reply, then exactly one success/idle push")
    func subscribeThenChanged() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["s"])
            let watcher = try daemon.connect()
            let reply = try watcher.result("query.subscribe", ["key": ["s", 1]])
            let subscription = reply.member("subscription") ?? nil
            #expect((subscription.asInt ?? 0) > 0, "\(reply)")
            expectJSON(reply, ["subscription": subscription, "state": queryState(["s", 1], fetchStatus: "fetching")])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["s", 1])
            try watcher.expectSilence()
            try fetcher.respond(id: request, result: ["data": ["v": 1]])
            let pushed = try watcher.nextNotification(method: "query.changed")
            expectJSON(
                pushed,
                [
                    "jsonrpc": "2.0", "method": "query.changed",
                    "params": ["subscription": subscription, "state": successState(["s", 1], data: ["v": 1])],
                ])
            try watcher.expectSilence()
            #expect(try watcher.result("query.unsubscribe", ["subscription": subscription]) == [:])
            let again = try watcher.call("query.unsubscribe", ["subscription": subscription])
            #expect(again.errorCode == -32005, "\(again)")
        }
    }

    @Test("queries.invalidate by prefix refetches only the active matching queries")
    func invalidateRefetchesActiveMatches() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["p"])
            let watcher = try daemon.connect()
            let control = try daemon.connect()
            for index in 1...2 {
                let key: JSONValue = ["p", .number(JSONNumber(index))]
                _ = try watcher.result("query.subscribe", ["key": key])
                let request = try fetcher.expectFetch(fetcher: fid, key: key)
                try fetcher.respond(id: request, result: ["data": .number(JSONNumber(index))])
                _ = try watcher.nextNotification(method: "query.changed")
            }
            _ = try control.result("query.set", ["key": ["p", 3], "data": 3])
            _ = try control.result("query.set", ["key": ["q", 1], "data": 4])
            _ = try control.result("query.subscribe", ["key": ["q", 1], "options": ["staleTime": "static"]])
            let matched = try control.result("queries.invalidate", ["filter": ["key": ["p"]]])
            #expect(matched == ["matched": 3], "\(matched)")
            var refetched: [JSONValue] = []
            for _ in 1...2 {
                let request = try fetcher.nextRequest(method: "fetch")
                let params = request.member("params") ?? nil
                #expect(params.member("attempt") == 1 && params.member("fetcher") == fid, "\(request)")
                refetched.append(params.member("key") ?? nil)
                try fetcher.respond(id: request.member("id") ?? nil, result: ["data": "new"])
            }
            #expect(Set(refetched) == [["p", 1], ["p", 2]], "refetched: \(refetched)")
            try fetcher.expectSilence()
            let inactive = try control.result("query.state", ["key": ["p", 3]])
            #expect(inactive.member("isInvalidated") == true && inactive.member("fetchStatus") == "idle", "\(inactive)")
            let other = try control.result("query.state", ["key": ["q", 1]])
            #expect(other.member("isInvalidated") == false, "\(other)")
        }
    }
}
