// Engine tests of the fetcher rules of the contract: which fetcher serves a key, pausing while none
// does, timeouts (a caller's wait and an attempt's), fetchers that disconnect, and fetcher defaults.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct FetcherTests {
    @Test func theLongestMatchingPrefixWins() {
        let h = EngineHarness()
        let specific = h.register("a", "b")
        let general = h.register("a")
        h.fetch(key("a", "b", 1))
        h.fetch(key("a", "c"))
        h.fetch(key("a"))
        #expect(h.sends.map(\.fetcher) == [specific, general, general])
        let exact = h.register("a", "c", exact: true)
        h.fetch(key("a", "c", 1))
        h.fetch(key("a", "c"), ["staleTime": 0])
        #expect(h.latestRequest(for: key("a", "c", 1))?.fetcher == general)
        #expect(h.sends.count == 4)
        h.answer(key("a", "c"), 1)
        h.fetch(key("a", "c"))
        #expect(h.latestRequest(for: key("a", "c"))?.fetcher == exact)
    }

    @Test func equalPrefixesGoToTheLeastBusyThenTheOldest() {
        let h = EngineHarness()
        let first = h.register("x")
        let second = h.register("x", connection: ConnectionID(101))
        h.fetch(key("x", 1))
        h.fetch(key("x", 2))
        h.answer(key("x", 1), 1)
        h.fetch(key("x", 3))
        h.fetch(key("x", 4))
        #expect(h.sends.map(\.fetcher) == [first, second, first, first])
        #expect(
            h.sends.map(\.connection) == [EngineHarness.fetcherConnection, ConnectionID(101), .init(100), .init(100)])
    }

    @Test func aFetchIsPausedWhileNoFetcherMatchesAndRunsWhenOneRegisters() {
        let h = EngineHarness()
        h.register("other")
        let (sub, reply) = h.subscribe(key("p"))
        #expect(describe(reply) == "pending/paused")
        #expect(reply.isPaused && !reply.isFetching && !reply.isLoading)
        let caller = h.fetch(key("p"))
        h.advance(60_000)
        #expect(h.sends.isEmpty && caller.results.isEmpty)
        #expect(h.cache.list(filter(["fetchStatus": "paused"])).map(\.key) == [key("p")])
        h.register("p")
        #expect(h.trace(of: sub) == ["pending/fetching"])
        #expect(h.sends.map(\.key) == [key("p")])
        h.answer(key("p"), 1)
        #expect(h.trace(of: sub) == ["pending/fetching", "success/idle data=1"])
        #expect(caller.value?.data == 1)
    }

    @Test func aCallersTimeoutWhilePausedFailsWithNoFetcher() {
        let h = EngineHarness()
        let caller = h.fetch(key("p"), ["timeout": 500])
        #expect(h.stateText(key("p")) == "pending/paused")
        h.advance(499)
        #expect(caller.results.isEmpty)
        h.advance(1)
        #expect(
            caller.failure
                == CacheFailure(code: -32002, message: "No fetcher", data: ["key": ["p"], "retryable": true]))
        #expect(h.stateText(key("p")) == "pending/idle")
        h.register("p")
        #expect(h.sends.isEmpty)
    }

    @Test func aCallersTimeoutDoesNotEndAFetchThatFoundAFetcher() {
        let h = EngineHarness()
        let caller = h.fetch(key("p"), ["timeout": 500])
        h.advance(to: 300)
        h.register("p")
        h.advance(to: 600)
        #expect(caller.results.isEmpty)
        h.answer(key("p"), 1)
        #expect(caller.value?.data == 1)
    }

    @Test func anAttemptTimeoutFailsTheAttemptAndTheRetryApplies() {
        let h = EngineHarness()
        h.register("t")
        let (sub, _) = h.subscribe(key("t"), ["timeout": 100, "retry": 1, "retryDelay": 10])
        let first = h.sends[0]
        h.advance(to: 99)
        #expect(h.cancels.isEmpty)
        h.advance(to: 100)
        #expect(h.cancels == [first.attempt])
        #expect(h.trace(of: sub) == ["pending/fetching failures=1"])
        #expect(h.pushes(of: sub).last?.failureReason?["data"] == ["code": -32004, "message": "Timeout"])
        h.advance(to: 110)
        #expect(h.sendTimes(for: key("t")) == [0, 110])
        h.cache.attemptSucceeded(first.attempt, answer: ["data": "late"])
        #expect(h.trace(of: sub) == ["pending/fetching failures=1"])
        h.answer(key("t"), 2)
        #expect(h.trace(of: sub).last == "success/idle data=2")
    }

    @Test func aFetchWhoseOnlyAttemptTimesOutFailsWithTheTimeoutError() {
        let h = EngineHarness()
        h.register("t")
        let caller = h.fetch(key("t"), ["timeout": 100])
        h.advance(100)
        #expect(
            caller.failure
                == CacheFailure(code: -32001, message: "Fetch failed", data: ["code": -32004, "message": "Timeout"]))
        #expect(h.cancels == [h.sends[0].attempt])
    }

    @Test func aClosedFetcherConnectionFailsItsAttemptAndTheRetryGoesElsewhere() {
        let h = EngineHarness()
        let leaving = h.register("a")
        let staying = h.register("a", connection: ConnectionID(101))
        let (sub, _) = h.subscribe(key("a"), ["retry": 1, "retryDelay": 10])
        #expect(h.sends.map(\.fetcher) == [leaving])
        h.cache.connectionClosed(EngineHarness.fetcherConnection)
        #expect(h.cancels.isEmpty)
        #expect(h.trace(of: sub) == ["pending/fetching failures=1"])
        #expect(h.pushes(of: sub).last?.failureReason?["data"]?["code"] == -32002)
        h.advance(10)
        #expect(h.sends.map(\.fetcher) == [leaving, staying])
        #expect(h.sends.last?.attemptNumber == 2)
        h.answer(key("a"), 1)
        #expect(h.trace(of: sub).last == "success/idle data=1")
        #expect(h.cache.statistics.fetchers == 1)
    }

    @Test func aRetryWithNoFetcherLeftPausesUntilOneRegisters() {
        let h = EngineHarness()
        h.register("a")
        let (sub, _) = h.subscribe(key("a"), ["retry": 1, "retryDelay": 10])
        h.cache.connectionClosed(EngineHarness.fetcherConnection)
        h.advance(10)
        #expect(h.trace(of: sub) == ["pending/fetching failures=1", "pending/paused failures=1"])
        h.register("a", connection: ConnectionID(101))
        #expect(h.sends.count == 2)
        h.answer(key("a"), 1)
        #expect(h.trace(of: sub).suffix(2) == ["pending/fetching failures=1", "success/idle data=1"])
    }

    @Test func fetcherDefaultsApplyByPrefixLaterRegistrationsAndExplicitOptionsWin() {
        let h = EngineHarness()
        h.register("a", "b", defaults: ["meta": "specific", "staleTime": 1000])
        h.register("a", defaults: ["meta": "general"])
        h.register("z")
        let (sub, _) = h.subscribe(key("a", "b", 1))
        #expect(h.latestRequest(for: key("a", "b", 1))?.meta == "general")
        h.answer(key("a", "b", 1), 1)
        h.advance(999)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=1 fresh"])
        h.advance(1)
        #expect(h.trace(of: sub, stale: true).last == "success/idle data=1 stale")

        h.subscribe(key("a", "b", 2), ["meta": "mine"])
        #expect(h.latestRequest(for: key("a", "b", 2))?.meta == "mine")
        h.fetch(key("a"))
        #expect(h.latestRequest(for: key("a"))?.meta == "general")
        h.fetch(key("z"))
        #expect(h.latestRequest(for: key("z"))?.meta == nil)
    }

    @Test func fetcherDefaultsCanTurnRetriesOff() {
        let h = EngineHarness()
        h.register("d", defaults: ["retry": 0])
        let (sub, _) = h.subscribe(key("d"))
        h.fail(key("d"))
        #expect(h.trace(of: sub) == ["error/idle error=-32001 failures=1 invalidated"])
        let (other, _) = h.subscribe(key("d", 1), ["retry": 1, "retryDelay": 5])
        h.fail(key("d", 1))
        #expect(h.trace(of: other) == ["pending/fetching failures=1"])
    }
}
