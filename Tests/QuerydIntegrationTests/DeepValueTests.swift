// Issue 13, defect 1: no `--max-depth` makes the daemon crashable from the socket. The flag is
// lowered at start to what the loop thread's stack can recurse through; a deeper value is a parse
// error, and a value at the limit is stored, read, patched, pushed and removed without a crash.

import QuerydJSON
import Testing

@Suite("Deep values")
struct DeepValueTests {
    static func arrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static func objects(_ depth: Int, leaf: String) -> String {
        String(repeating: #"{"a":"#, count: depth) + leaf + String(repeating: "}", count: depth)
    }

    /// The depth the daemon accepts, read from its refusal of a 100,000-level value.
    static func effectiveDepth(_ client: LineClient) throws -> Int {
        try client.send(
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["deep"],"data":"#
                + arrays(100_000) + "}}")
        let reply = try client.readJSON()
        #expect(reply.member("error")?.member("code") == -32700)
        let reason = reply.member("error")?.member("data")?.member("reason")?.asString ?? ""
        #expect(reason.hasPrefix("nesting deeper than "), "\(reply.encodedString)")
        return Int(reason.split(separator: " ")[3]) ?? 0
    }

    @Test func aHundredThousandLevelsUnderAHugeMaxDepthAreRefusedNotACrash() throws {
        let daemon = try DaemonProcess(flags: ["--max-depth", "1000000", "--max-message-bytes", "4000000"])
        let client = try daemon.connect()
        let depth = try Self.effectiveDepth(client)
        #expect(depth > 1000 && depth < 100_000)
        try client.expectHealthy()
        #expect(daemon.logTail().contains("--max-depth 1000000 lowered to \(depth)"))
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aValueAtTheLoweredLimitIsStoredReadPatchedPushedAndRemoved() throws {
        let daemon = try DaemonProcess(flags: ["--max-depth", "1000000", "--max-message-bytes", "4000000"])
        let client = try daemon.connect()
        // `{"params":{"data":…}}` puts the data two levels down.
        let dataDepth = try Self.effectiveDepth(client) - 2
        let watcher = try daemon.connect()
        _ = try watcher.result("query.subscribe", ["key": ["deep"]])
        let deep = Self.objects(dataDepth - 1, leaf: "[1]")
        try client.send(#"{"jsonrpc":"2.0","id":2,"method":"query.set","params":{"key":["deep"],"data":"# + deep + "}}")
        #expect(try client.readLine().contains(#""data":"# + deep + ","))
        #expect(try watcher.readLine().contains(#""data":"# + deep + ","))
        try client.send(#"{"jsonrpc":"2.0","id":3,"method":"query.get","params":{"key":["deep"]}}"#)
        #expect(try client.readLine().hasPrefix(#"{"jsonrpc":"2.0","id":3,"result":{"data":"# + deep + ","))
        // A patch as deep as the data, replacing the innermost array.
        let patch = Self.objects(dataDepth - 1, leaf: "2")
        try client.send(
            #"{"jsonrpc":"2.0","id":4,"method":"query.set","params":{"key":["deep"],"mergePatch":"# + patch + "}}")
        #expect(try client.readLine().contains(#""data":"# + patch + ","))
        #expect(try watcher.readLine().contains(#""data":"# + patch + ","))
        // The same data again: compared with the stored value, not re-encoded.
        try client.send(
            #"{"jsonrpc":"2.0","id":5,"method":"query.set","params":{"key":["deep"],"data":"# + patch + "}}")
        #expect(try client.readLine().contains(#""data":"# + patch + ","))
        #expect(try watcher.readLine().contains(#""data":"# + patch + ","))
        try client.send(#"{"jsonrpc":"2.0","id":6,"method":"query.state","params":{"key":["deep"]}}"#)
        #expect(try client.readLine().contains(#""data":"# + patch + ","))
        watcher.close()
        #expect(try client.result("queries.remove", [:]) == ["matched": 1])
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }
}
