// Engine tests of `attemptSettled`: an attempt answered with data fetched elsewhere keeps that
// data's `dataUpdatedAt`, so its staleness counts from the original fetch.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct SettledElsewhereTests {
    @Test func anAttemptSettledElsewhereKeepsItsDataUpdatedAtAndGoesStaleOnThatClock() {
        let h = EngineHarness()
        h.register("s")
        h.advance(1_000)
        let (sub, _) = h.subscribe(key("s"), ["staleTime": 500])
        let request = h.latestRequest(for: key("s"))!
        #expect(h.cache.fetchOptions(forAttempt: request.attempt)?.staleTime == .milliseconds(500))
        // Fetched elsewhere 200 ms ago (at clock time now - 200).
        let fetchedAt = h.clock.now - 200
        h.cache.attemptSettled(request.attempt, data: 7, updatedAt: fetchedAt)
        #expect(h.cache.state(of: key("s"))?.dataUpdatedAt == fetchedAt)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=7 fresh"])
        // Stale 500 ms after the original fetch: 300 ms from now, not 500.
        h.advance(299)
        #expect(h.pushes(of: sub).count == 1)
        h.advance(1)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=7 fresh", "success/idle data=7 stale"])
        // The attempt is over: a second settle (or a late fetcher answer) changes nothing.
        h.cache.attemptSettled(request.attempt, data: 8, updatedAt: h.clock.now)
        #expect(h.cache.fetchOptions(forAttempt: request.attempt) == nil)
        #expect(h.cache.state(of: key("s"))?.data == 7)
        #expect(h.sends.count == 1)
    }
}
