// Engine tests of the subscription lifecycle: the first load, disabled subscriptions, key and
// option switches, and the push rules (versions grow, an unchanged view is never pushed twice).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct SubscriptionTests {
    @Test func B001_subscribeMakesOneCallAndPushesTheSuccess() {
        let h = EngineHarness()
        let fetcher = h.register("todos")
        let (sub, reply) = h.subscribe(key("todos"))
        #expect(describe(reply) == "pending/fetching")
        #expect(reply.isLoading && reply.isPending && reply.isFetching && !reply.isFetched)
        #expect(h.sends.count == 1)
        #expect(h.sends.first?.key == key("todos"))
        #expect(h.sends.first?.fetcher == fetcher)
        #expect(h.sends.first?.attemptNumber == 1)
        #expect(h.sends.first?.connection == EngineHarness.fetcherConnection)
        #expect(h.trace(of: sub).isEmpty)
        h.answer(key("todos"), [1])
        #expect(h.trace(of: sub) == ["success/idle data=[1]"])
        let last = h.pushes(of: sub).last
        #expect(last?.isFetched == true && last?.isLoading == false && last?.dataUpdateCount == 1)
        #expect(h.sends.count == 1)
    }

    @Test func B006_disabledSubscriptionOnAnUncachedKeyMakesNoCall() {
        let h = EngineHarness()
        h.register("todos")
        let (sub, reply) = h.subscribe(key("todos"), ["enabled": false])
        #expect(describe(reply, stale: true) == "pending/idle fresh")
        #expect(!reply.isLoading && !reply.isStale)
        #expect(h.sends.isEmpty)
        h.advance(10_000)
        #expect(h.sends.isEmpty && h.trace(of: sub).isEmpty)
    }

    @Test func B007_explicitRefetchOfADisabledSubscriptionFetches() {
        let h = EngineHarness()
        h.register("todos")
        let (sub, _) = h.subscribe(key("todos"), ["enabled": false])
        let outcome = h.refetch(sub)
        #expect(h.sends.count == 1)
        h.answer(key("todos"), [1])
        #expect(h.trace(of: sub) == ["pending/fetching", "success/idle data=[1]"])
        #expect(outcome.value.map { describe($0) } == "success/idle data=[1]")
    }

    @Test func B008_disabledSubscriptionSeesCachedDataWithoutACall() {
        let h = EngineHarness()
        h.register("todos")
        h.set(key("todos"), [1])
        let (sub, reply) = h.subscribe(key("todos"), ["enabled": false])
        #expect(describe(reply) == "success/idle data=[1]")
        #expect(h.sends.isEmpty && h.trace(of: sub).isEmpty)
    }

    @Test func B009_disabledSubscriptionIsPushedAnotherCallersFetch() {
        let h = EngineHarness()
        h.register("todos")
        let (sub, _) = h.subscribe(key("todos"), ["enabled": false])
        h.fetch(key("todos"))
        h.answer(key("todos"), [1])
        #expect(h.trace(of: sub) == ["pending/fetching", "success/idle data=[1]"])
    }

    @Test func B014_switchingKeyLoadsTheNewKeyAndCollectsTheOldOne() {
        let h = EngineHarness()
        h.register("p")
        let (sub, first) = h.subscribe(key("p", 1))
        h.answer(key("p", 1), 1)
        let switched = h.setOptions(sub, key: key("p", 2), nil)
        #expect(switched.map { describe($0) } == "pending/fetching")
        #expect(h.sends(for: key("p", 2)).count == 1)
        h.answer(key("p", 2), 2)
        // Subscribe reply, push, setOptions reply, push: TanStack's pending, data1, pending, data2.
        #expect(describe(first) == "pending/fetching")
        #expect(h.trace(of: sub) == ["success/idle data=1", "success/idle data=2"])
        #expect(h.cache.query(key("p", 1)) != nil)
        h.advance(300_000)
        #expect(h.cache.query(key("p", 1)) == nil)
        #expect(h.cache.query(key("p", 2)) != nil)
    }

    /// TanStack's shouldFetchOptionally uses isStaleByTime, which is true for missing data even with
    /// staleTime "static"; so a switch to an uncached key loads it whatever the staleTime.
    @Test func switchingToAnUncachedKeyWithStaticStaleTimeStillLoads() {
        let h = EngineHarness()
        h.register("p")
        let (sub, _) = h.subscribe(key("p", 1), ["staleTime": "static"])
        h.answer(key("p", 1), 1)
        let switched = h.setOptions(sub, key: key("p", 2), nil)
        #expect(switched.map { describe($0) } == "pending/fetching")
        #expect(h.sends(for: key("p", 2)).count == 1)
    }

    /// Same rule for enabling: a static subscription enabled on a key without data loads it.
    @Test func enablingAStaticSubscriptionOnAnUncachedKeyLoads() {
        let h = EngineHarness()
        h.register("p")
        let (sub, _) = h.subscribe(key("p"), ["staleTime": "static", "enabled": false])
        #expect(h.sends.isEmpty)
        let enabled = h.setOptions(sub, ["staleTime": "static", "enabled": true])
        #expect(enabled.map { describe($0) } == "pending/fetching")
        #expect(h.sends.count == 1)
    }

    @Test func B099_setOptionsWithEqualOptionsPushesNothingAndFetchesNothing() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), ["staleTime": 1000])
        h.answer(key("k"), 1)
        let before = h.pushes(of: sub).last
        let reply = h.setOptions(sub, ["staleTime": 1000])
        #expect(reply == before)
        #expect(h.trace(of: sub) == ["success/idle data=1"])
        #expect(h.sends.count == 1)
    }

    @Test func versionStrictlyIncreasesOnEveryPushedChange() {
        let h = EngineHarness()
        h.register("v")
        let (sub, reply) = h.subscribe(key("v"), ["retry": 1, "retryDelay": 10, "staleTime": 100])
        h.fail(key("v"))
        h.advance(10)
        h.answer(key("v"), 1)
        h.advance(100)
        _ = h.cache.invalidate(filter(["key": ["v"]]), refetchType: .active)
        h.answer(key("v"), 2)
        h.set(key("v"), 3)
        h.refetch(sub)
        h.cache.cancel(key: key("v"), revert: true)
        let versions = [reply.version] + h.pushes(of: sub).map(\.version)
        #expect(versions.count == 10)
        #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "versions: \(versions)")
    }

    @Test func anUnchangedViewIsNeverPushedTwice() {
        let h = EngineHarness()
        h.register("u", cancellable: true)
        let (sub, _) = h.subscribe(key("u"))
        h.answer(key("u"), 1)
        h.refetch(sub)
        let versionWhileFetching = h.cache.query(key("u"))?.version ?? 0
        // A refetch that replaces the running one restarts the fetch: the state is rewritten with the
        // same values, so the version moves but the view does not, and nothing is pushed.
        h.refetch(sub, cancelRefetch: true)
        #expect((h.cache.query(key("u"))?.version ?? 0) > versionWhileFetching)
        #expect(h.trace(of: sub) == ["success/idle data=1", "success/fetching data=1"])
        // An invalidation of an already invalidated query changes nothing.
        _ = h.cache.invalidate(filter(["key": ["u"]]), refetchType: .none)
        _ = h.cache.invalidate(filter(["key": ["u"]]), refetchType: .none)
        h.answer(key("u"), 1)
        #expect(
            h.trace(of: sub) == [
                "success/idle data=1", "success/fetching data=1", "success/fetching data=1 invalidated",
                "success/idle data=1",
            ])
        let pushes = h.pushes(of: sub)
        #expect(zip(pushes, pushes.dropFirst()).allSatisfy { $0 != $1 })
    }
}
