// Issue 13 defect 2 and issue 21 §2: limits are consistent. A write whose data could never be sent
// back within --max-outbound-bytes is refused; a reply that cannot fit is answered with -32006
// instead of the connection closing; a push that cannot fit is sent without its data.

import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Outbound limit")
struct OutboundLimitTests {
    static func text(_ count: Int) -> JSONValue { .string(String(repeating: "x", count: count)) }

    static func tooLarge(_ id: JSONValue, max: Int) -> JSONValue {
        [
            "jsonrpc": "2.0", "id": id,
            "error": [
                "code": -32006, "message": "Limit exceeded",
                "data": [
                    "limit": "max-outbound-bytes", "max": .number(JSONNumber(max)), "bytes": "$number",
                    "retryable": false,
                ],
            ],
        ]
    }

    @Test func aWriteThatCouldNeverBeReadIsRefusedNamingBothLimits() throws {
        let daemon = try DaemonProcess(flags: ["--max-message-bytes", "4000000", "--max-outbound-bytes", "1000000"])
        let client = try daemon.connect()
        let refused = try client.call("query.set", ["key": ["big"], "data": Self.text(1_500_000)])
        expectJSON(
            refused,
            [
                "jsonrpc": "2.0", "id": "$number",
                "error": [
                    "code": -32006, "message": "Limit exceeded",
                    "data": [
                        "limit": "max-outbound-bytes", "max": 1_000_000, "bytes": 1_500_009,
                        "maxMessageBytes": 4_000_000,
                        "retryable": false, "reason": "$any",
                    ],
                ],
            ])
        #expect(try client.result("query.get", ["key": ["big"]]) == nil)
        // A merge patch that would grow stored data past the limit is refused too; the data stays.
        let half: JSONValue = ["a": Self.text(600_000)]
        _ = try client.result("query.set", ["key": ["big"], "data": half])
        let patch = try client.call("query.set", ["key": ["big"], "mergePatch": ["b": Self.text(600_000)]])
        #expect(patch.member("error")?.member("code") == -32006)
        #expect(try client.result("query.get", ["key": ["big"]]).member("data") == half)
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aListReplyOverTheLimitIsAnErrorNotAClose() throws {
        let daemon = try DaemonProcess(flags: ["--max-outbound-bytes", "200000"])
        let client = try daemon.connect()
        for name in ["a", "b", "c"] {
            _ = try client.result("query.set", ["key": [.string(name)], "data": Self.text(88_000)])
        }
        let id = try client.sendRequest("queries.list", [:])
        expectJSON(try client.awaitResponse(id: id), Self.tooLarge(id, max: 200_000))
        // In a batch, the largest answers give way until the line fits.
        try client.send(
            #"[{"jsonrpc":"2.0","id":"a","method":"query.get","params":{"key":["a"]}},"#
                + #"{"jsonrpc":"2.0","id":"b","method":"query.get","params":{"key":["b"]}},"#
                + #"{"jsonrpc":"2.0","id":"c","method":"query.get","params":{"key":["c"]}}]"#)
        let batch = try client.readLine()
        #expect(batch.utf8.count < 200_000)
        let answers = json(batch).asArray ?? []
        #expect(answers.count == 3)
        #expect(answers.filter { $0.has("result") }.count == 2)
        #expect(answers.filter { $0.member("error")?.member("code") == -32006 }.count == 1)
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func fetchedDataOverTheLimitFailsTheFetch() throws {
        let daemon = try DaemonProcess(flags: ["--max-outbound-bytes", "200000"])
        let watcher = try daemon.connect()
        _ = try watcher.result("query.subscribe", ["key": ["big"]])
        let fetcher = try daemon.connect()
        let fetcherID = try fetcher.registerFetcher(["big"])
        let client = try daemon.connect()
        let fetch = try client.sendRequest("query.fetch", ["key": ["big"], "options": ["retry": 0]])
        let request = try fetcher.expectFetch(fetcher: fetcherID, key: ["big"])
        try fetcher.respond(id: request, result: ["data": Self.text(300_000)])
        let tooLarge: JSONValue = [
            "code": -32006, "message": "Limit exceeded",
            "data": ["limit": "max-outbound-bytes", "bytes": 300_009, "maxDataBytes": 195_904],
        ]
        expectJSON(
            try client.awaitResponse(id: fetch), ["jsonrpc": "2.0", "id": fetch, "error": fetchFailed(tooLarge)])
        #expect(try client.result("query.get", ["key": ["big"]]) == nil)
        // The subscriber saw the fetch start, then fail; no line was too long for it.
        let fetching = try watcher.nextNotification(method: "query.changed")
        #expect(fetching.member("params")?.member("state")?.member("fetchStatus") == "fetching")
        let failed = try watcher.nextNotification(method: "query.changed").member("params")?.member("state")
        #expect(failed?.member("status") == "error")
        #expect(failed?.member("error") == fetchFailed(tooLarge))
        try watcher.expectHealthy()
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }
}
