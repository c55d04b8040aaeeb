// Issue 13 defect 5: input quoted back in an error is cut to 256 bytes and a marker, so a 1 MB
// method or member name does not make a 1 MB error reply.

import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Echoed input")
struct EchoedInputTests {
    static let huge = String(repeating: "m", count: 1_048_576)
    static let cut = String(repeating: "m", count: 256) + "…"

    @Test func aMegabyteMethodNameIsEchoedCut() throws {
        let daemon = try DaemonProcess(flags: ["--max-message-bytes", "4000000"])
        let client = try daemon.connect()
        try client.send(#"{"jsonrpc":"2.0","id":1,"method":""# + Self.huge + #""}"#)
        let line = try client.readLine()
        #expect(line.utf8.count < 512)
        #expect(
            json(line)
                == [
                    "jsonrpc": "2.0", "id": 1,
                    "error": ["code": -32601, "message": "Method not found", "data": ["method": .string(Self.cut)]],
                ])
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aMegabyteMemberNameIsEchoedCut() throws {
        let daemon = try DaemonProcess(flags: ["--max-message-bytes", "4000000"])
        let client = try daemon.connect()
        let reply = try client.call("query.get", ["key": ["a"], Self.huge: 1])
        #expect(reply.member("error")?.member("data")?.member("field") == .string(Self.cut))
        let props = try client.call(
            "query.subscribe", ["key": ["a"], "options": ["notifyOnChangeProps": [.string(Self.huge)]]])
        #expect(
            props.member("error")?.member("data")?.member("reason") == .string("\"\(Self.cut)\" is not a state field"))
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }
}
