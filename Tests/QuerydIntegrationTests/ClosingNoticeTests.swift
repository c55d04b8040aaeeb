// `$/closing {reason, limit}` before a close for a limit, over the wire: a client whose unread
// output passes --max-outbound-bytes and then reads gets what was queued and, last, the notice;
// one that does not read is closed when the grace period ends, and does not get it.

import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("$/closing")
struct ClosingNoticeTests {
    /// Pipelines rpc.discover requests without reading until the daemon stops reading.
    private func flood(_ socket: RawSocket) {
        let request = #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"# + "\n"
        _ = socket.sendUntilFull(Array(String(repeating: request, count: 2_000).utf8))
    }

    @Test func aSlowConsumerThatReadsAgainGetsTheNoticeLast() throws {
        let limit = 1 << 20
        let daemon = try DaemonProcess(flags: ["--max-outbound-bytes", "\(limit)"])
        let flooder = try RawSocket(path: daemon.socketPath)
        flood(flooder)
        var last: String?
        var replies = 0
        while let line = try flooder.readLine(timeout: 5) {
            if line.hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":"#) { replies += 1 }
            last = line
        }
        #expect(replies > 0)
        let notice = json(try #require(last))
        #expect(notice.member("method") == "$/closing")
        #expect(notice.member("params")?.member("limit") == "max-outbound-bytes")
        #expect(notice.member("params")?.member("reason")?.asString?.contains("--max-outbound-bytes \(limit)") == true)
        #expect(!notice.has("id"))
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aConsumerThatDoesNotReadIsClosedWithinTheGracePeriod() throws {
        let daemon = try DaemonProcess(flags: ["--max-outbound-bytes", "\(1 << 20)"])
        let flooder = try RawSocket(path: daemon.socketPath)
        let observer = try daemon.connect()
        flood(flooder)
        // Closed without the peer reading: the grace period (1 s) does not wait for it.
        let start = Clock.now
        try observer.waitForStats("connections", toBe: 1)
        #expect(Clock.now - start < 3)
        // What the socket held is readable, then the end; the notice was queued behind what the
        // socket could not take, and dropped with it.
        var notices = 0
        while let line = try flooder.readLine(timeout: 5) {
            if json(line).member("method") == "$/closing" { notices += 1 }
        }
        #expect(notices == 0)
        #expect(daemon.log.contains("limit --max-outbound-bytes"))
        #expect(try daemon.stop() == .exited(0))
    }
}
