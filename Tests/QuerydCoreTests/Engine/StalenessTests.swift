// Engine tests of staleness: when data turns stale (and the push of that flip), which subscribes
// refetch, per-subscription staleness, query-level staleness for filters, fetch and ensure.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct StalenessTests {
    @Test func B016_defaultStaleTimeMakesEveryNewSubscriberRefetch() {
        let h = EngineHarness()
        h.register("s")
        let (a, _) = h.subscribe(key("s"))
        h.answer(key("s"), 1)
        #expect(h.trace(of: a, stale: true) == ["success/idle data=1 stale"])
        let (_, reply) = h.subscribe(key("s"))
        #expect(describe(reply, stale: true) == "success/fetching data=1 stale")
        #expect(reply.isRefetching && !reply.isLoading)
        #expect(h.trace(of: a) == ["success/idle data=1", "success/fetching data=1"])
        #expect(h.sends.count == 2)
    }

    /// TanStack's stale timer fires at dataUpdatedAt + staleTime + 1 ms; the engine flips exactly at
    /// dataUpdatedAt + staleTime, the first instant `isStale` is true by TanStack's own formula.
    @Test func B017_theStaleFlipIsPushedAtStaleTimeWithoutAFetch() {
        let h = EngineHarness()
        h.register("s")
        let (sub, _) = h.subscribe(key("s"), ["staleTime": 100])
        h.answer(key("s"), 1)
        h.advance(99)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=1 fresh"])
        h.advance(1)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=1 fresh", "success/idle data=1 stale"])
        #expect(h.pushTimes(of: sub) == [0, 100])
        h.advance(10_000)
        #expect(h.sends.count == 1)
        #expect(h.pushes(of: sub).count == 2)
    }

    @Test func B018_subscribeRefetchFollowsRefetchOnSubscribe() {
        let h = EngineHarness()
        h.register("s")
        h.set(key("s", "fresh"), 1)
        let (_, fresh) = h.subscribe(key("s", "fresh"), ["staleTime": 1000])
        #expect(describe(fresh) == "success/idle data=1")
        #expect(h.sends.isEmpty)

        let (_, always) = h.subscribe(key("s", "fresh"), ["staleTime": 1000, "refetchOnSubscribe": "always"])
        #expect(describe(always) == "success/fetching data=1")
        #expect(h.sends(for: key("s", "fresh")).count == 1)

        h.set(key("s", "stale"), 2)
        let (_, never) = h.subscribe(key("s", "stale"), ["refetchOnSubscribe": "never"])
        #expect(describe(never, stale: true) == "success/idle data=2 stale")
        #expect(h.sends(for: key("s", "stale")).isEmpty)

        let (_, empty) = h.subscribe(key("s", "empty"), ["refetchOnSubscribe": "never"])
        #expect(describe(empty) == "pending/fetching")
        #expect(h.sends(for: key("s", "empty")).count == 1)
    }

    @Test func B021_eachSubscriberUsesItsOwnStaleTimeAndTheFilterAsksAnyOfThem() {
        let h = EngineHarness()
        h.register("s")
        let (zero, _) = h.subscribe(key("s"))
        let (infinite, _) = h.subscribe(key("s"), ["staleTime": "Infinity"])
        h.answer(key("s"), 1)
        #expect(h.trace(of: zero, stale: true) == ["success/idle data=1 stale"])
        #expect(h.trace(of: infinite, stale: true) == ["success/idle data=1 fresh"])
        #expect(h.cache.list(filter(["stale": true])).map(\.key) == [key("s")])
        #expect(h.cache.list(filter(["stale": false])).isEmpty)
        h.unsubscribe(zero)
        #expect(h.cache.list(filter(["stale": true])).isEmpty)
    }

    @Test func B022_anInactiveQueryIsStaleForFiltersOnlyWhenMissingOrInvalidated() {
        let h = EngineHarness()
        h.register("s")
        h.fetch(key("s"), ["gcTime": "Infinity"])
        h.answer(key("s"), 1)
        h.advance(3_600_000)
        #expect(h.cache.list(filter(["stale": true])).isEmpty)
        #expect(h.cache.list(filter(["stale": false])).map(\.key) == [key("s")])
        // `query.state` has no subscription context: it judges with the default staleTime 0.
        #expect(h.cache.state(of: key("s"))?.isStale == true)
        _ = h.cache.invalidate(filter(["key": ["s"]]), refetchType: .none)
        #expect(h.cache.list(filter(["stale": true])).map(\.key) == [key("s")])
    }

    @Test func B025_fetchCallsUnlessTheDataIsFreshForTheCallersStaleTime() {
        let h = EngineHarness()
        h.register("s")
        let first = h.fetch(key("s"))
        h.answer(key("s"), 1)
        #expect(first.value?.data == 1)
        let second = h.fetch(key("s"))
        #expect(h.sends.count == 2)
        h.answer(key("s"), 2)
        #expect(second.value?.data == 2)
        h.advance(999)
        let cached = h.fetch(key("s"), ["staleTime": 1000])
        #expect(cached.value?.data == 2)
        #expect(h.sends.count == 2)
        h.advance(1)
        let refreshed = h.fetch(key("s"), ["staleTime": 1000])
        #expect(h.sends.count == 3)
        #expect(refreshed.results.isEmpty)
        h.answer(key("s"), 3)
        #expect(refreshed.value?.data == 3)
    }

    @Test func B026_ensureReturnsDataOfAnyAgeAndCallsOnlyWithout() {
        let h = EngineHarness()
        h.register("s")
        let first = h.fetch(key("s"), mode: .ensure)
        #expect(h.sends.count == 1)
        h.answer(key("s"), 1)
        #expect(first.value?.data == 1)
        h.advance(200_000)
        let second = h.fetch(key("s"), mode: .ensure)
        #expect(second.value?.data == 1)
        #expect(second.value?.isStale == true)
        #expect(h.sends.count == 1)
    }

    @Test func B027_switchingToAStaleCachedKeyFetchesEvenWithRefetchOnSubscribeNever() {
        let h = EngineHarness()
        h.register("s")
        h.set(key("s", 2), 2)
        let (_, direct) = h.subscribe(key("s", 2), ["refetchOnSubscribe": "never"])
        #expect(describe(direct) == "success/idle data=2")
        #expect(h.sends(for: key("s", 2)).isEmpty)
        let (sub, _) = h.subscribe(key("s", 1), ["refetchOnSubscribe": "never"])
        h.answer(key("s", 1), 1)
        let switched = h.setOptions(sub, key: key("s", 2), nil)
        #expect(switched.map { describe($0) } == "success/fetching data=2")
        #expect(h.sends(for: key("s", 2)).count == 1)
    }

    @Test func B028_enablingFetchesStaleDataButNotFreshData() {
        let h = EngineHarness()
        h.register("s")
        h.set(key("s", "stale"), 1)
        let (stale, _) = h.subscribe(key("s", "stale"), ["enabled": false])
        #expect(h.sends.isEmpty)
        let enabled = h.setOptions(stale, ["enabled": true])
        #expect(enabled.map { describe($0) } == "success/fetching data=1")
        #expect(h.sends(for: key("s", "stale")).count == 1)

        h.set(key("s", "fresh"), 2)
        let (fresh, _) = h.subscribe(key("s", "fresh"), ["enabled": false, "staleTime": 60_000])
        let stillFresh = h.setOptions(fresh, ["enabled": true, "staleTime": 60_000])
        #expect(stillFresh.map { describe($0) } == "success/idle data=2")
        #expect(h.sends(for: key("s", "fresh")).isEmpty)
    }

    /// The stale flip changes no query state, but it is a pushed change, so a client that orders
    /// (or deduplicates) pushes by version must see a new version on it.
    @Test func theStaleFlipPushCarriesANewVersion() {
        let h = EngineHarness()
        h.register("s")
        let (sub, _) = h.subscribe(key("s"), ["staleTime": 100])
        h.answer(key("s"), 1)
        h.advance(100)
        let versions = h.pushes(of: sub).map(\.version)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=1 fresh", "success/idle data=1 stale"])
        #expect(versions.count == 2 && versions[0] < versions[1], "versions: \(versions)")
    }
}
