// Slow consumers against the real daemon: a subscriber that never reads while its key is written
// 20 000 times (bench/soak.sh goes further), a client that pipelines requests without reading
// (paused, every reply kept), and one whose unread output passes --max-outbound-bytes (closed,
// with a logged reason). Memory stays bounded (VmRSS) and another client's ping stays fast.

import Glibc
import QuerydJSON
import Testing

@Suite("Slow consumers")
struct SlowConsumerIntegrationTests {
    static let megabyte = 1 << 20

    @Test func aSubscriberThatNeverReadsGetsTheNewestStateAndMemoryStaysBounded() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock", "--max-batch", "1000"])
        let subscriber = try daemon.connect()
        let subscription = try subscriber.result("query.subscribe", ["key": ["hot"]]).member("subscription")
        let writer = try daemon.connect()
        let observer = try daemon.connect()
        let baseline = daemon.residentBytes
        #expect(try observer.pingRoundTrip() < 0.1)
        let total = 20_000
        let batch = 1_000
        var worstPing = 0.0
        // Batches of 1 000 writes, one reply line each; the observer pings after every 2 batches.
        for start in stride(from: 1, through: total, by: batch) {
            try writer.send(LineClient.hotKeyWrites(from: start, count: batch))
            let reply = try writer.readLine(timeout: 30)
            #expect(reply.hasPrefix(#"[{"jsonrpc":"2.0","id":\#(start),"result":{"#))
            if (start / batch) % 2 == 0 { worstPing = max(worstPing, try observer.pingRoundTrip()) }
        }
        let growth = daemon.residentBytes - baseline
        #expect(growth < 50 * Self.megabyte, "RSS grew by \(growth) bytes")
        #expect(worstPing < 0.1, "slowest median ping during the flood: \(worstPing) s")
        // Unread pushes coalesced: the subscriber reads far fewer than 100 000, the last with the newest state.
        var pushes = 0
        while true {
            let push = try subscriber.nextNotification(method: "query.changed", timeout: 10)
            pushes += 1
            #expect(push.member("params")?.member("subscription") == subscription)
            if push.member("params")?.member("state")?.member("data")?.member("n")?.asInt == total { break }
        }
        #expect(pushes < total / 10, "\(pushes) pushes for \(total) writes")
        try subscriber.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aClientPipeliningWithoutReadingIsPausedAndGetsEveryReply() throws {
        let daemon = try DaemonProcess()
        let flooder = try RawSocket(path: daemon.socketPath)
        let observer = try daemon.connect()
        let baseline = daemon.residentBytes
        var text = ""
        let count = 400_000
        for id in 1...count { text += #"{"jsonrpc":"2.0","id":\#(id),"method":"server.ping"}"# + "\n" }
        let bytes = Array(text.utf8)
        let sent = flooder.sendUntilFull(bytes)
        // The daemon stopped reading: not everything could be sent, and memory did not follow.
        #expect(sent < bytes.count)
        #expect(daemon.residentBytes - baseline < 50 * Self.megabyte)
        #expect(try observer.pingRoundTrip() < 0.1)
        let complete = bytes[0..<sent].filter { $0 == 0x0A }.count
        for id in 1...complete {
            let line = try flooder.readLine(timeout: 10)
            #expect(line == #"{"jsonrpc":"2.0","id":\#(id),"result":{}}"#)
            if line != #"{"jsonrpc":"2.0","id":\#(id),"result":{}}"# { break }
        }
        // Once it reads again, the daemon reads again: the rest of the flood is answered too.
        #expect(flooder.sendUntilFull(Array(bytes[sent...])) > 0)
        #expect(try flooder.readLine(timeout: 10) == #"{"jsonrpc":"2.0","id":\#(complete + 1),"result":{}}"#)
        flooder.close()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func unreadOutputPastTheLimitClosesTheConnectionWithALoggedReason() throws {
        let limit = 4 * Self.megabyte
        let daemon = try DaemonProcess(flags: ["--max-outbound-bytes", "\(limit)"])
        let flooder = try RawSocket(path: daemon.socketPath)
        let observer = try daemon.connect()
        let baseline = daemon.residentBytes
        // Each rpc.discover reply is large: a few hundred unread ones pass the limit.
        let request = #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"# + "\n"
        let bytes = Array(String(repeating: request, count: 2_000).utf8)
        _ = flooder.sendUntilFull(bytes)
        try observer.waitForStats("connections", toBe: 1)
        // What the kernel had already taken is readable, then the stream ends.
        #expect(try flooder.drainUntilClosed() < limit)
        #expect(
            daemon.log.contains("bytes of output unread (limit --max-outbound-bytes \(limit))"), "\(daemon.logTail())")
        #expect(daemon.residentBytes - baseline < 50 * Self.megabyte)
        #expect(try observer.pingRoundTrip() < 0.1)
        #expect(try daemon.stop() == .exited(0))
    }
}
