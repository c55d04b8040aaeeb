// The limit flags of `queryd serve` reach the server: each refusal is the exact -32006 reply
// naming the flag, and the connection stays usable; invalid limit values refuse to start.

import QuerydJSON
import Testing

@Suite("Limits")
struct LimitsIntegrationTests {
    static func limit(_ id: JSONValue, _ flag: String, _ max: Int, retryable: Bool = false) -> JSONValue {
        [
            "jsonrpc": "2.0", "id": id,
            "error": [
                "code": -32006, "message": "Limit exceeded",
                "data": ["limit": .string(flag), "max": .number(JSONNumber(max)), "retryable": .bool(retryable)],
            ],
        ]
    }

    @Test func perConnectionLimitsAreEnforcedWithExactReplies() throws {
        let daemon = try DaemonProcess(flags: [
            "--manual-clock", "--max-subscriptions-per-connection", "1", "--max-registrations-per-connection", "1",
            "--max-pending-requests-per-connection", "1", "--max-batch", "2",
        ])
        let client = try daemon.connect()
        _ = try client.result("query.subscribe", ["key": ["a"]])
        let subscribe = try client.sendRequest("query.subscribe", ["key": ["b"]])
        #expect(try client.awaitResponse(id: subscribe) == Self.limit(subscribe, "max-subscriptions-per-connection", 1))
        _ = try client.registerFetcher(["x"])
        let register = try client.sendRequest("fetcher.register", ["key": ["y"]])
        #expect(try client.awaitResponse(id: register) == Self.limit(register, "max-registrations-per-connection", 1))
        let waiting = try client.sendRequest("query.fetch", ["key": ["nobody"]])
        let refused = try client.sendRequest("query.fetch", ["key": ["nobody", 2]])
        #expect(
            try client.awaitResponse(id: refused)
                == Self.limit(refused, "max-pending-requests-per-connection", 1, retryable: true))
        try client.send(
            #"[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","method":"y"},{"jsonrpc":"2.0","method":"z"}]"#)
        #expect(try client.readJSON() == Self.limit(nil, "max-batch", 2))
        try client.notify("$/cancelRequest", ["id": waiting])
        #expect(try client.awaitResponse(id: waiting).errorCode == -32800)
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test(arguments: [
        "--max-subscriptions-per-connection", "--max-registrations-per-connection",
        "--max-pending-requests-per-connection", "--max-outbound-bytes", "--max-batch",
    ])
    func aLimitMustBePositive(_ flag: String) throws {
        let outcome = try DaemonProcess.run(arguments: [
            "serve", "--socket", DaemonProcess.temporarySocketPath(), flag, "0",
        ])
        #expect(outcome.status == .exited(64), "\(outcome.output)")
        #expect(outcome.output.contains("limits must be positive"))
    }
}
