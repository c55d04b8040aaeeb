// A full close is a disconnect (issue 21 §2): a client that closes its socket while a request
// waits is gone at once (its waits withdrawn, the connection no longer counted, nothing later
// fetched for it), unlike a half-close, whose requests are still answered.

import Glibc
import QuerydJSON
import Testing

@Suite("Full close")
struct FullCloseTests {
    @Test func aFullCloseWithdrawsAWaitingFetchAtOnce() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let observer = try daemon.connect()
        let caller = try daemon.connect()
        // No fetcher and no timeout: the fetch waits (paused) for one.
        _ = try caller.sendRequest("query.fetch", ["key": ["gone"]])
        try observer.waitForStats("pendingRequests", toBe: 1)
        caller.close()
        let closedAt = Clock.now
        try observer.waitForStats("connections", toBe: 1)
        try observer.waitForStats("pendingRequests", toBe: 0)
        #expect(Clock.now - closedAt < 1)
        // A fetcher registering later is not sent the abandoned fetch.
        let fetcher = try daemon.connect()
        _ = try fetcher.registerFetcher(["gone"])
        try fetcher.expectSilence(for: 0.3)
        #expect(try observer.result("query.state", ["key": ["gone"]]).member("fetchStatus") == "idle")
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aHalfCloseIsStillAnsweredWhenTheFetcherComesLater() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let caller = try daemon.connect()
        let call = try caller.sendRequest("query.fetch", ["key": ["later"]])
        caller.shutdownWrite()
        // Longer than the hang-up checks' interval: the half-closed caller is still served.
        usleep(300_000)
        let fetcher = try daemon.connect()
        let fid = try fetcher.registerFetcher(["later"])
        let request = try fetcher.expectFetch(fetcher: fid, key: ["later"])
        try fetcher.respond(id: request, result: ["data": 3])
        #expect(try caller.awaitResponse(id: call).member("result")?.member("data") == 3)
        try caller.expectEndOfStream()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aHalfClosedCallerThatClosesLaterIsGoneToo() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let observer = try daemon.connect()
        let caller = try daemon.connect()
        _ = try caller.sendRequest("query.fetch", ["key": ["late-close"]])
        try observer.waitForStats("pendingRequests", toBe: 1)
        caller.shutdownWrite()
        usleep(200_000)
        #expect(try observer.result("server.stats", [:]).member("connections")?.asInt == 2)
        caller.close()
        try observer.waitForStats("connections", toBe: 1)
        try observer.waitForStats("pendingRequests", toBe: 0)
        #expect(try daemon.stop() == .exited(0))
    }
}
