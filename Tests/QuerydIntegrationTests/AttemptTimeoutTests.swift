// The daemon-wide default attempt timeout (--attempt-timeout-ms) on the manual clock: a fetcher
// that answers with an unparsable line, or never, no longer leaves its query fetching forever;
// the attempt fails with -32004, the fetcher is sent $/cancelRequest, and retries follow the rules.
// A query's own options.timeout still wins; a mutate attempt times out the same way.

import QuerydJSON
import Testing

@Suite("Default attempt timeout")
struct AttemptTimeoutTests {
    static let timeout: JSONValue = ["code": -32004, "message": "Timeout"]

    @Test func aGarbageAnswerThenSilenceTimeOutAndRetry() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock", "--attempt-timeout-ms", "5000"])
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["k"])
        let caller = try daemon.connect()
        let call = try caller.sendRequest("query.fetch", ["key": ["k"], "options": ["retry": 1, "retryDelay": 100]])
        let first = try fetcher.expectFetch(fetcher: fid, key: ["k"])
        // An answer line that does not parse: answered with -32700, the attempt still in flight.
        try fetcher.send(#"{"jsonrpc":"2.0","id":\#(first.encodedString),"result":{"data":"#)
        #expect(try fetcher.readJSON().errorCode == -32700)
        try caller.advance(4999, to: clockStart + 4999)
        #expect(try caller.result("query.state", ["key": ["k"]]).member("fetchStatus") == "fetching")
        try fetcher.expectSilence()
        try caller.advance(1, to: clockStart + 5000)
        let cancel = try fetcher.nextNotification(method: "$/cancelRequest")
        #expect(cancel.member("params") == ["id": first])
        let state = try caller.result("query.state", ["key": ["k"]])
        #expect(state.member("failureCount") == 1)
        #expect(state.member("failureReason") == fetchFailed(Self.timeout))
        // The retry after its delay; a fetcher that never answers times out again, and the caller
        // gets the timeout as the last error.
        try caller.advance(100, to: clockStart + 5100)
        let second = try fetcher.expectFetch(fetcher: fid, key: ["k"], attempt: 2)
        try caller.advance(5000, to: clockStart + 10100)
        #expect(try fetcher.nextNotification(method: "$/cancelRequest").member("params") == ["id": second])
        #expect(try caller.awaitResponse(id: call).member("error") == fetchFailed(Self.timeout))
        #expect(try caller.result("query.state", ["key": ["k"]]).member("fetchStatus") == "idle")
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aQuerysOwnTimeoutWinsAndZeroMeansNone() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock", "--attempt-timeout-ms", "5000"])
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["k"])
        let caller = try daemon.connect()
        let call = try caller.sendRequest("query.fetch", ["key": ["k"], "options": ["timeout": 20000]])
        _ = try fetcher.expectFetch(fetcher: fid, key: ["k"])
        try caller.advance(19999, to: clockStart + 19999)
        #expect(try caller.result("query.state", ["key": ["k"]]).member("fetchStatus") == "fetching")
        try caller.advance(1, to: clockStart + 20000)
        #expect(try caller.awaitResponse(id: call).member("error") == fetchFailed(Self.timeout))
        #expect(try daemon.stop() == .exited(0))

        let unlimited = try DaemonProcess(flags: ["--manual-clock", "--attempt-timeout-ms", "0"])
        let patient = try unlimited.connect()
        let pid = try patient.registerFetcher(["k"])
        _ = try patient.sendRequest("query.fetch", ["key": ["k"]])
        _ = try patient.expectFetch(fetcher: pid, key: ["k"])
        try patient.advance(86_400_000, to: clockStart + 86_400_000)
        #expect(try patient.result("query.state", ["key": ["k"]]).member("fetchStatus") == "fetching")
        #expect(try unlimited.stop() == .exited(0))
    }

    @Test func aMutateAttemptTimesOutByDefault() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock", "--attempt-timeout-ms", "5000"])
        let mutator = try daemon.connect()
        _ = try mutator.result("mutator.register", ["key": ["todos"]])
        let caller = try daemon.connect()
        let call = try caller.sendRequest("mutation.run", ["key": ["todos", "add"], "variables": 1])
        let request = try mutator.nextRequest(method: "mutate")
        try caller.advance(5000, to: clockStart + 5000)
        #expect(
            try mutator.nextNotification(method: "$/cancelRequest").member("params") == ["id": request.member("id")!])
        let reply = try caller.awaitResponse(id: call)
        #expect(reply.errorCode == -32007)
        #expect(reply.member("error")?.member("data") == Self.timeout)
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aNegativeTimeoutIsRefusedAtStart() throws {
        let (status, output) = try DaemonProcess.run(arguments: ["serve", "--attempt-timeout-ms", "-1"])
        #expect(status != .exited(0))
        #expect(output.contains("--attempt-timeout-ms"), "\(output)")
    }
}
