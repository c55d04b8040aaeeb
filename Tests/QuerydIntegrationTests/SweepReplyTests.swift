// Filter calls over many queries run in slices across loop turns (issue 20): other requests are
// answered meanwhile, and the call answers with its count once its last slice is done.

import QuerydJSON
import Testing

@Suite("Sweeps in slices")
struct SweepReplyTests {
    @Test func aPingSentAfterALargeInvalidateIsAnsweredFirst() throws {
        let daemon = try DaemonProcess(flags: ["--max-batch", "1000"])
        let client = try daemon.connect()
        for start in stride(from: 0, to: 3000, by: 1000) {
            let members = (start..<(start + 1000)).map { index in
                #"{"jsonrpc":"2.0","id":\#(index + 1),"method":"query.set","params":{"key":["m",\#(index)],"data":1}}"#
            }
            try client.send("[" + members.joined(separator: ",") + "]")
            _ = try client.readLine(timeout: 30)
        }
        // One write: the invalidate (3,000 matches, several slices) and then a ping.
        try client.send(
            #"{"jsonrpc":"2.0","id":"inv","method":"queries.invalidate","params":{"filter":{"key":["m"]}}}"#
                + "\n" + #"{"jsonrpc":"2.0","id":"ping","method":"server.ping"}"#)
        let first = try client.readJSON()
        let second = try client.readJSON()
        #expect(first["id"] == "ping")
        #expect(second["id"] == "inv")
        #expect(second["result"]?["matched"] == 3000)
        let state = try client.result("query.state", ["key": ["m", 2999]])
        #expect(state["isInvalidated"] == true)
        #expect(try daemon.stop() == .exited(0))
    }
}
