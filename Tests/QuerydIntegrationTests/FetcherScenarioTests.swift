// Fetcher scenarios against the real daemon (manual clock): dedupe, retry, prefix choice,
// garbage answers and attempt timeouts.

import QuerydJSON
import Testing

@Suite("Fetcher scenarios")
struct FetcherScenarioTests {
    @Test("dedupe: a delayed fetcher answers once for three callers and all get the same data")
    func delayedFetcherDedupes() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["d"])
            let first = try daemon.connect()
            let firstID = try first.sendRequest("query.fetch", ["key": ["d"]])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["d"])
            let second = try daemon.connect()
            let secondID = try second.sendRequest("query.fetch", ["key": ["d"]])
            try second.expectHealthy()
            let watcher = try daemon.connect()
            let subscribed = try watcher.result("query.subscribe", ["key": ["d"]])
            expectJSON(subscribed, ["subscription": "$number", "state": queryState(["d"], fetchStatus: "fetching")])
            try fetcher.expectSilence()
            try fetcher.respond(id: request, result: ["data": ["n": 42]])
            let expected = successState(["d"], data: ["n": 42])
            expectJSON(try first.awaitResponse(id: firstID), ["jsonrpc": "2.0", "id": firstID, "result": expected])
            expectJSON(try second.awaitResponse(id: secondID), ["jsonrpc": "2.0", "id": secondID, "result": expected])
            let changed = try watcher.nextNotification(method: "query.changed")
            expectJSON(
                changed.member("params") ?? nil,
                ["subscription": subscribed.member("subscription")!, "state": expected])
            try fetcher.expectSilence()
            let stats = try first.result("server.stats", [:])
            #expect(stats.member("inFlightFetches") == 0 && stats.member("pendingRequests") == 0, "\(stats)")
        }
    }

    @Test("retry 2, retryDelay 1000: attempts 2 and 3 only after clock.advance; -32001 carries the last error")
    func failingFetcherRetries() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["f"])
            let caller = try daemon.connect()
            let control = try daemon.connect()
            let callID = try caller.sendRequest(
                "query.fetch", ["key": ["f"], "options": ["retry": 2, "retryDelay": 1000]])
            var now = clockStart
            for attempt in 1...3 {
                let request = try fetcher.expectFetch(fetcher: fid, key: ["f"], attempt: attempt)
                let data: JSONValue = ["attempt": .number(JSONNumber(attempt))]
                try fetcher.respondError(id: request, code: 500 + attempt, message: "boom \(attempt)", data: data)
                try fetcher.expectHealthy()
                guard attempt < 3 else { break }
                let state = try control.result("query.state", ["key": ["f"]])
                expectJSON(
                    state,
                    queryState(
                        ["f"], fetchStatus: "fetching", failureCount: attempt,
                        failureReason: fetchFailed([
                            "code": .number(JSONNumber(500 + attempt)),
                            "message": .string("boom \(attempt)"), "data": data,
                        ])))
                now += 999
                try control.advance(999, to: now)
                try fetcher.expectSilence()
                try caller.expectSilence()
                now += 1
                try control.advance(1, to: now)
            }
            let reply = try caller.awaitResponse(id: callID)
            expectJSON(
                reply,
                [
                    "jsonrpc": "2.0", "id": callID,
                    "error": [
                        "code": -32001, "message": "Fetch failed",
                        "data": ["code": 503, "message": "boom 3", "data": ["attempt": 3]],
                    ],
                ])
            try fetcher.expectSilence()
        }
    }

    @Test("longest matching prefix wins between fetchers on [a] and [a,b]")
    func longestPrefixWins() throws {
        try withDaemon(["--manual-clock"]) { daemon, short in
            let shortID = try short.registerFetcher(["a"])
            let long = try daemon.connect()
            let longID = try long.registerFetcher(["a", "b"])
            let caller = try daemon.connect()
            let cases: [(JSONValue, LineClient, JSONValue, LineClient)] = [
                (["a", "b", "c"], long, longID, short), (["a", "b"], long, longID, short),
                (["a", "x"], short, shortID, long), (["a"], short, shortID, long),
            ]
            for (key, chosen, chosenID, other) in cases {
                let callID = try caller.sendRequest("query.fetch", ["key": key])
                let request = try chosen.expectFetch(fetcher: chosenID, key: key)
                try other.expectSilence()
                try chosen.respond(id: request, result: ["data": key])
                expectJSON(
                    try caller.awaitResponse(id: callID),
                    ["jsonrpc": "2.0", "id": callID, "result": successState(key, data: key)])
            }
        }
    }

    @Test("garbage from a fetcher: a result without data fails the attempt; bad lines get replies; all stays healthy")
    func garbageAnswers() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["g"])
            let caller = try daemon.connect()
            let firstID = try caller.sendRequest("query.fetch", ["key": ["g", 1]])
            let first = try fetcher.expectFetch(fetcher: fid, key: ["g", 1])
            try fetcher.respond(id: first, result: ["value": 1])
            let failed = try caller.awaitResponse(id: firstID)
            #expect(failed.errorCode == -32001, "\(failed)")
            let message = failed.member("error")?.member("data")?.member("message")?.asString ?? ""
            #expect(message.contains("data is undefined"), "\(failed)")

            let secondID = try caller.sendRequest("query.fetch", ["key": ["g", 2]])
            let second = try fetcher.expectFetch(fetcher: fid, key: ["g", 2])
            try fetcher.send("this is not json")
            expectError(try fetcher.readJSON(), code: -32700, id: nil)
            try fetcher.send(#"{"jsonrpc":"2.0","id":987654,"result":{"data":"stray"}}"#)
            let pingID = try fetcher.sendRequest("server.ping", [:])
            var next = try fetcher.readJSON()
            if next.member("id") != pingID {
                #expect(next.has("error"), "a stray response may only get an error reply: \(next)")
                next = try fetcher.readJSON()
            }
            expectResult(next, [:], id: pingID)
            try fetcher.respond(id: second, result: ["data": "ok"])
            expectJSON(
                try caller.awaitResponse(id: secondID),
                ["jsonrpc": "2.0", "id": secondID, "result": successState(["g", 2], data: "ok")])
            try caller.expectHealthy()
        }
    }

    @Test("a fetcher that never answers: after options.timeout it is told to stop and the caller gets -32001/-32004")
    func neverAnsweringFetcherTimesOut() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["t"])
            let caller = try daemon.connect()
            let control = try daemon.connect()
            let callID = try caller.sendRequest("query.fetch", ["key": ["t"], "options": ["timeout": 500]])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["t"])
            try control.advance(499, to: clockStart + 499)
            try fetcher.expectSilence()
            try caller.expectSilence()
            try control.advance(1, to: clockStart + 500)
            let cancel = try fetcher.nextNotification(method: "$/cancelRequest")
            expectJSON(cancel, ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": request]])
            expectJSON(
                try caller.awaitResponse(id: callID),
                [
                    "jsonrpc": "2.0", "id": callID,
                    "error": [
                        "code": -32001, "message": "Fetch failed", "data": ["code": -32004, "message": "Timeout"],
                    ],
                ])
            try fetcher.respond(id: request, result: ["data": "too late"])
            try fetcher.expectHealthy()
            let state = try control.result("query.get", ["key": ["t"]])
            #expect(state == .null, "a late answer must be ignored: \(state)")
        }
    }
}
