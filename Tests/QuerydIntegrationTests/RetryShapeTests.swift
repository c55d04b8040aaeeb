// Retry shapes over the wire (manual clock): `retry` as a list of error codes, `retryDelay` as
// `{base, factor, max, jitter?}` (with the manual clock's seeded jitter), `retryOnMount`, and the
// -32602 answers for malformed shapes.

import QuerydJSON
import Testing

@Suite("Retry shapes")
struct RetryShapeTests {
    @Test("retry [503] with a {base 100, factor 2, max 300} backoff: 503s retried at +100 and +200 ms, a 500 is final")
    func codesAndBackoff() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["r"])
            let caller = try daemon.connect()
            let call = try caller.sendRequest(
                "query.fetch",
                [
                    "key": ["r"],
                    "options": ["retry": [503], "retryDelay": ["base": 100, "factor": 2, "max": 300]],
                ])
            let first = try fetcher.expectFetch(fetcher: fid, key: ["r"])
            try fetcher.respondError(id: first, code: 503, message: "busy")
            try fetcher.expectHealthy()
            try caller.advance(99, to: clockStart + 99)
            try fetcher.expectSilence()
            try caller.advance(1, to: clockStart + 100)
            let second = try fetcher.expectFetch(fetcher: fid, key: ["r"], attempt: 2)
            try fetcher.respondError(id: second, code: 503, message: "busy")
            try fetcher.expectHealthy()
            try caller.advance(199, to: clockStart + 299)
            try fetcher.expectSilence()
            try caller.advance(1, to: clockStart + 300)
            let third = try fetcher.expectFetch(fetcher: fid, key: ["r"], attempt: 3)
            try fetcher.respondError(id: third, code: 500, message: "bug")
            expectJSON(
                try caller.awaitResponse(id: call),
                [
                    "jsonrpc": "2.0", "id": call,
                    "error": ["code": -32001, "message": "Fetch failed", "data": ["code": 500, "message": "bug"]],
                ])
            try fetcher.expectSilence()
        }
    }

    @Test("jitter on the manual clock: the first draw of the seed-0 generator takes 883 of a 1000 ms delay")
    func jitterIsSeeded() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["j"])
            let caller = try daemon.connect()
            _ = try caller.sendRequest(
                "query.fetch",
                [
                    "key": ["j"],
                    "options": ["retry": 1, "retryDelay": ["base": 1000, "factor": 2, "max": 1000, "jitter": true]],
                ])
            let first = try fetcher.expectFetch(fetcher: fid, key: ["j"])
            try fetcher.respondError(id: first, code: 1, message: "no")
            try fetcher.expectHealthy()
            try caller.advance(116, to: clockStart + 116)
            try fetcher.expectSilence()
            try caller.advance(1, to: clockStart + 117)
            _ = try fetcher.expectFetch(fetcher: fid, key: ["j"], attempt: 2)
        }
    }

    @Test("retryOnMount false: subscribing to a query that failed without data does not fetch; the default does")
    func retryOnMount() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["m"])
            let client = try daemon.connect()
            let call = try client.sendRequest("query.fetch", ["key": ["m"]])
            try fetcher.respondError(id: try fetcher.expectFetch(fetcher: fid, key: ["m"]), code: 7, message: "down")
            #expect(try client.awaitResponse(id: call).errorCode == -32001)
            let failed = queryState(
                ["m"], status: "error", error: fetchFailed(["code": 7, "message": "down"]), errorUpdatedAt: clockStart,
                errorUpdateCount: 1, failureCount: 1, failureReason: fetchFailed(["code": 7, "message": "down"]),
                isInvalidated: true)
            let reply = try client.result(
                "query.subscribe", ["key": ["m"], "options": ["retryOnMount": false, "retry": false]])
            expectJSON(reply.member("state") ?? nil, failed)
            try fetcher.expectSilence()
            _ = try client.result("query.subscribe", ["key": ["m"], "options": ["retry": false]])
            _ = try fetcher.expectFetch(fetcher: fid, key: ["m"])
        }
    }

    @Test("malformed retry shapes are -32602 naming the field")
    func badShapes() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            let cases: [(JSONValue, String)] = [
                (["retry": ["503"]], "options.retry"),
                (["retry": -1], "options.retry"),
                (["retry": "3"], "options.retry"),
                (["retryDelay": ["base": 1, "factor": 2]], "options.retryDelay.max"),
                (["retryDelay": ["base": 1, "factor": 0.5, "max": 9]], "options.retryDelay.factor"),
                (["retryDelay": ["base": 1, "factor": 2, "max": 9, "jitter": 2]], "options.retryDelay.jitter"),
                (["retryDelay": ["base": 1, "factor": 2, "max": 9, "cap": 1]], "options.retryDelay.cap"),
                (["retryOnMount": 1], "options.retryOnMount"),
            ]
            for (options, field) in cases {
                let reply = try client.call("query.fetch", ["key": ["x"], "options": options])
                #expect(reply.errorCode == -32602, "\(options): \(reply)")
                #expect(reply.member("error")?.member("data")?.member("field") == .string(field), "\(reply)")
            }
            let mutation = try client.call(
                "mutation.run", ["key": ["x"], "options": ["retryDelay": ["base": -1, "factor": 2, "max": 9]]])
            #expect(mutation.member("error")?.member("data")?.member("field") == "options.retryDelay.base")
        }
    }
}
