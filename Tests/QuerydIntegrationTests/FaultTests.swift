// Faults against the real daemon: a fetcher that hangs, one that sends garbage, answers twice or
// answers ids it was never sent; clients that half-close with a fetch pending, vanish mid-batch,
// flood bad lines, or connect and disconnect in a loop. No crash, no waiter left hanging, and
// other connections keep their latency.

import Glibc
import QuerydJSON
import Testing

@Suite("Faults")
struct FaultIntegrationTests {
    @Test func aHungFetcherTimesOutAndItsLateAnswerIsIgnored() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["k"])
        let caller = try daemon.connect()
        let call = try caller.sendRequest("query.fetch", ["key": ["k"], "options": ["timeout": 1000]])
        let request = try fetcher.expectFetch(fetcher: fid, key: ["k"])
        try caller.advance(1000, to: clockStart + 1000)
        let reply = try caller.awaitResponse(id: call)
        #expect(reply.member("error") == fetchFailed(["code": -32004, "message": "Timeout"]))
        try fetcher.respond(id: request, result: ["data": "late"])
        #expect(try caller.result("query.get", ["key": ["k"]]) == nil)
        try fetcher.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aFetcherSendingGarbageTwiceAndUnknownIdsCannotBreakTheFetch() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["k"])
        let caller = try daemon.connect()
        let call = try caller.sendRequest("query.fetch", ["key": ["k"]])
        let request = try fetcher.expectFetch(fetcher: fid, key: ["k"])
        try fetcher.sendRaw([0xFF, 0xFE, 0x00, 0x0A])
        #expect(try fetcher.readJSON().errorCode == -32700)
        try fetcher.respond(id: 4242, result: ["data": "forged"])
        try fetcher.respond(id: request, result: ["data": "first"])
        try fetcher.respond(id: request, result: ["data": "second"])
        #expect(try caller.awaitResponse(id: call).member("result")?.member("data") == "first")
        #expect(try caller.result("query.get", ["key": ["k"]]).member("data") == "first")
        try fetcher.expectSilence()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aMalformedErrorFromAFetcherFailsTheWaitInsteadOfHanging() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["k"])
        let caller = try daemon.connect()
        let call = try caller.sendRequest("query.fetch", ["key": ["k"]])
        let request = try fetcher.expectFetch(fetcher: fid, key: ["k"])
        try fetcher.send(JSONValue.object(["jsonrpc": "2.0", "id": request, "error": ["message": 5]]).encodedString)
        let reply = try caller.awaitResponse(id: call)
        expectJSON(
            reply.member("error") ?? nil,
            fetchFailed([
                "code": -32600, "message": "Malformed response",
                "data": ["reason": "error must be an object with an integer code and a string message"],
            ]))
        #expect(daemon.isRunning)
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aHalfClosedCallerStillGetsItsPendingAnswerThenEOF() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["k"])
        let caller = try daemon.connect()
        let call = try caller.sendRequest("query.fetch", ["key": ["k"]])
        let request = try fetcher.expectFetch(fetcher: fid, key: ["k"])
        caller.shutdownWrite()
        try fetcher.respond(id: request, result: ["data": 7])
        #expect(try caller.awaitResponse(id: call).member("result")?.member("data") == 7)
        try caller.expectEndOfStream()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aCallerVanishingWhileWaitingLeavesNoWaiter() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["k"])
        let caller = try daemon.connect()
        try caller.send(#"{"jsonrpc":"2.0","id":1,"method":"query.fetch","params":{"key":["k"]}}"#)
        try caller.send(#"{"jsonrpc":"2.0","id":2,"method":"server.ping"}"#)
        let request = try fetcher.expectFetch(fetcher: fid, key: ["k"])
        // On a Unix socket a vanished peer reads as end of input: the wait is finished, its
        // reply cannot be delivered, and the connection is gone.
        caller.close()
        try fetcher.respond(id: request, result: ["data": 1])
        try fetcher.waitForStats("connections", toBe: 1)
        try fetcher.waitForStats("pendingRequests", toBe: 0)
        #expect(try fetcher.result("query.get", ["key": ["k"]]).member("data") == 1)
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aFloodOfBadLinesDoesNotSlowAnotherClient() throws {
        let daemon = try DaemonProcess()
        let flooder = try RawSocket(path: daemon.socketPath)
        let observer = try daemon.connect()
        let before = try observer.pingRoundTrip()
        let junk = Array(String(repeating: "{not json at all}\n", count: 50_000).utf8)
        #expect(flooder.sendUntilFull(junk) > 0)
        let during = try observer.pingRoundTrip()
        #expect(before < 0.1 && during < 0.1, "ping before \(before) s, during \(during) s")
        #expect(try flooder.readLine()?.contains(#""code":-32700"#) == true)
        #expect(daemon.isRunning)
        flooder.close()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func connectionChurnLeaksNoDescriptorsOrMemory() throws {
        let daemon = try DaemonProcess()
        let observer = try daemon.connect()
        try observer.expectHealthy()
        let descriptors = ProcessProbe.openDescriptors(of: daemon.pid)
        let baseline = daemon.residentBytes
        for round in 0..<2_000 {
            let client = try daemon.connect()
            if round % 2 == 0 {
                try client.send(#"{"jsonrpc":"2.0","id":1,"method":"query.subscribe","params":{"key":["churn"]}}"#)
            }
            client.close()
        }
        try observer.waitForStats("connections", toBe: 1)
        try observer.waitForStats("subscriptions", toBe: 0)
        #expect(ProcessProbe.openDescriptors(of: daemon.pid) <= descriptors)
        #expect(daemon.residentBytes - baseline < 20 << 20)
        #expect(try daemon.stop() == .exited(0))
    }
}
