// Engine tests of cancellation: `query.cancel` with and without revert, the revert target after a
// manual write, and what the last subscriber leaving does to a fetch (per fetcher cancellability).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct CancellationTests {
    @Test func B048_cancelRevertsABackgroundRefetchAndTheCallerGetsTheOldData() {
        let h = EngineHarness()
        h.register("c", cancellable: true)
        let (sub, _) = h.subscribe(key("c"))
        h.answer(key("c"), "v1")
        let caller = h.fetch(key("c"))
        let refetch = h.sends[1]
        h.cache.cancel(key: key("c"), revert: true)
        #expect(h.cancels == [refetch.attempt])
        #expect(
            h.trace(of: sub) == [
                #"success/idle data="v1""#, #"success/fetching data="v1""#, #"success/idle data="v1""#,
            ])
        #expect(caller.value.map { describe($0) } == #"success/idle data="v1""#)
        // The late answer is ignored.
        h.cache.attemptSucceeded(refetch.attempt, answer: ["data": "v2"])
        #expect(h.stateText(key("c")) == #"success/idle data="v1""#)
        #expect(h.pushes(of: sub).count == 3)
    }

    @Test func B049_cancelDuringTheInitialFetchRevertsToPendingAndRejectsTheCaller() {
        let h = EngineHarness()
        h.register("c")
        let (sub, _) = h.subscribe(key("c"))
        let caller = h.fetch(key("c"))
        h.cache.cancel(key: key("c"), revert: true)
        #expect(h.trace(of: sub) == ["pending/idle"])
        #expect(h.pushes(of: sub).last?.error == nil)
        #expect(caller.failure?.code == -32003)
        #expect(h.cancels == [h.sends[0].attempt])
    }

    @Test func B050_cancelWithoutRevertLeavesAnErrorThatIsTheCancellation() {
        let h = EngineHarness()
        h.register("c")
        let (sub, _) = h.subscribe(key("c"))
        h.answer(key("c"), 1)
        let caller = h.fetch(key("c"))
        h.cache.cancel(key: key("c"), revert: false)
        #expect(h.trace(of: sub).last == "error/idle data=1 error=-32001 failures=1 invalidated")
        #expect(h.pushes(of: sub).last?.error?["data"]?["code"] == -32003)
        #expect(caller.failure?.code == -32003)
    }

    @Test func B051_cancellingAnIdleQueryChangesNothing() {
        let h = EngineHarness()
        h.register("c")
        let (ok, _) = h.subscribe(key("c", "ok"))
        h.answer(key("c", "ok"), 1)
        let (bad, _) = h.subscribe(key("c", "bad"), ["retry": 0])
        h.fail(key("c", "bad"))
        let versions = [h.cache.query(key("c", "ok"))?.version, h.cache.query(key("c", "bad"))?.version]
        h.cache.cancel(key: key("c", "ok"), revert: true)
        h.cache.cancel(key: key("c", "bad"), revert: false)
        #expect(h.trace(of: ok) == ["success/idle data=1"])
        #expect(h.trace(of: bad) == ["error/idle error=-32001 failures=1 invalidated"])
        #expect([h.cache.query(key("c", "ok"))?.version, h.cache.query(key("c", "bad"))?.version] == versions)
        #expect(h.cancels.isEmpty)
    }

    @Test func B052_aFetchAfterACancelWithoutRevertWorksNormally() {
        let h = EngineHarness()
        h.register("c")
        let (sub, _) = h.subscribe(key("c"))
        h.cache.cancel(key: key("c"), revert: false)
        #expect(h.trace(of: sub) == ["error/idle error=-32001 failures=1 invalidated"])
        h.refetch(sub)
        #expect(h.sends.count == 2)
        h.answer(key("c"), 1)
        #expect(h.trace(of: sub).suffix(2) == ["pending/fetching invalidated", "success/idle data=1"])
        #expect(h.pushes(of: sub).last?.error == nil)
    }

    @Test func B053_cancelRevertsToAManualWriteMadeDuringTheFetch() {
        let h = EngineHarness()
        h.register("c")
        let (sub, _) = h.subscribe(key("c"))
        h.answer(key("c"), 1)
        h.refetch(sub)
        h.set(key("c"), 2)
        #expect(h.trace(of: sub).last == "success/fetching data=2")
        h.cache.cancel(key: key("c"), revert: true)
        #expect(h.trace(of: sub).last == "success/idle data=2")
        #expect(h.cache.query(key("c"))?.state.dataUpdateCount == 2)
    }

    /// The daemon's "offline" is "no fetcher": a paused initial fetch nobody wants any more is
    /// dropped at once, and a fetcher registering later gets no call.
    @Test func B054_unsubscribingFromAPausedInitialFetchDropsIt() {
        let h = EngineHarness()
        let (sub, reply) = h.subscribe(key("c"))
        #expect(describe(reply) == "pending/paused")
        h.unsubscribe(sub)
        #expect(h.stateText(key("c")) == "pending/idle")
        h.register("c")
        #expect(h.sends.isEmpty)
    }

    @Test func B055_lastUnsubscribeCancelsACancellableFetcher() {
        let h = EngineHarness()
        h.register("c", cancellable: true)
        let (sub, _) = h.subscribe(key("c"), ["gcTime": 1000])
        h.unsubscribe(sub)
        #expect(h.cancels == [h.sends[0].attempt])
        #expect(h.stateText(key("c")) == "pending/idle")
        h.answer(key("c"), 1)
        #expect(h.stateText(key("c")) == "pending/idle")
        h.advance(1000)
        #expect(h.cache.query(key("c")) == nil)
    }

    @Test func B055_lastUnsubscribeLetsANonCancellableFetchComplete() {
        let h = EngineHarness()
        h.register("c", cancellable: false)
        let (sub, _) = h.subscribe(key("c"))
        h.unsubscribe(sub)
        #expect(h.cancels.isEmpty)
        #expect(h.stateText(key("c")) == "pending/fetching")
        h.answer(key("c"), 1)
        #expect(h.stateText(key("c")) == "success/idle data=1")
        #expect(h.trace(of: sub).isEmpty)
    }

    @Test func B055_aRemainingCallerKeepsACancellableFetchAlive() {
        let h = EngineHarness()
        h.register("c", cancellable: true)
        let (sub, _) = h.subscribe(key("c"))
        let caller = h.fetch(key("c"))
        h.unsubscribe(sub)
        #expect(h.cancels.isEmpty)
        h.answer(key("c"), 1)
        #expect(caller.value?.data == 1)
    }

    @Test func cancellingTheLastWaiterCancelsACancellableFetch() {
        let h = EngineHarness()
        h.register("c", cancellable: true)
        let outcome = h.makeOutcome()
        try! h.cache.fetch(key: key("c"), options: QueryOptions(), mode: .fetch, waiter: outcome.token)
        #expect(outcome.results.isEmpty)
        h.cache.cancelWaiter(outcome.token)
        #expect(outcome.results.isEmpty)
        #expect(h.cancels == [h.sends[0].attempt])
        #expect(h.stateText(key("c")) == "pending/idle")
    }

    @Test func aClosedClientConnectionEndsItsSubscriptionsAndTheirFetch() {
        let h = EngineHarness()
        h.register("c", cancellable: true)
        let (sub, _) = h.subscribe(key("c"))
        h.subscribe(key("d"), ["enabled": false])
        #expect(h.cache.statistics.subscriptions == 2)
        h.cache.connectionClosed(EngineHarness.client)
        #expect(h.cache.statistics.subscriptions == 0)
        #expect(h.cancels == [h.sends[0].attempt])
        #expect(h.stateText(key("c")) == "pending/idle")
        #expect(h.trace(of: sub).isEmpty)
        #expect(h.cache.statistics.fetchers == 1)
    }
}
