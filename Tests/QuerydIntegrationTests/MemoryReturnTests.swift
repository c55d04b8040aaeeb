// Memory goes back after a mass garbage collection (issue 20): 100,000 unused queries reaching their
// gcTime together are collected and the daemon's resident memory falls back near where it started,
// where glibc would otherwise keep the freed pages.

import QuerydJSON
import Testing

@Suite("Memory return")
struct MemoryReturnTests {
    @Test func aMassCollectionGivesTheMemoryBack() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock", "--max-batch", "1000"])
        let client = try daemon.connect()
        _ = try client.result("server.ping")
        let baseline = daemon.residentBytes
        let payload = String(repeating: "v", count: 100)
        for start in stride(from: 0, to: 100_000, by: 1000) {
            let members = (start..<(start + 1000)).map { index in
                #"{"jsonrpc":"2.0","id":\#(index + 1),"method":"query.set","#
                    + #""params":{"key":["m",\#(index)],"data":"\#(payload)"}}"#
            }
            try client.send("[" + members.joined(separator: ",") + "]")
            _ = try client.readLine(timeout: 30)
        }
        let filled = daemon.residentBytes
        #expect(try client.result("server.stats").member("queries") == 100_000)
        // The default gcTime is 5 minutes: every query is collected in one sweep.
        _ = try client.result("clock.advance", ["ms": 300_000])
        #expect(try client.result("server.stats").member("queries") == 0)
        let after = daemon.residentBytes
        let growth = filled - baseline
        #expect(growth > 20 << 20, "the fill should take memory: grew \(growth) bytes")
        #expect(after - baseline < growth / 4, "baseline \(baseline), filled \(filled), after gc \(after)")
        #expect(try daemon.stop() == .exited(0))
    }
}
