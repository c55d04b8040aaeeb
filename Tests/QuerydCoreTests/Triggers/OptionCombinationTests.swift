// Per-subscription options in the combinations users trip on: placeholder + select, initialData +
// staleTime (B093, B094), two subscriptions with different staleTime on one key, enabled toggling
// (B104 for fetches), and select errors that stay on their own subscription (B087).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct OptionCombinationTests {
    // MARK: - placeholderData + select

    @Test func B089_selectAppliesToAPlaceholderValueWhichIsNeverCached() {
        let h = EngineHarness()
        h.register("ps")
        let (id, first) = h.subscribe(
            key("ps"), ["placeholderData": ["items": [], "total": 2], "select": "/total"])
        #expect(describe(first) == "success/fetching data=2 placeholder")
        #expect(first.isRefetching && !first.isLoading)
        #expect(h.cache.query(key("ps"))?.state.data == nil)
        #expect(h.stateText(key("ps")) == "pending/fetching")
        h.answer(key("ps"), ["items": [1], "total": 5])
        #expect(h.trace(of: id) == ["success/idle data=5"])
        #expect(h.cache.query(key("ps"))?.state.data == ["items": [1], "total": 5])
    }

    @Test func B091_placeholderPreviousIsTheOldKeysWholeDataSeenThroughSelect() {
        let h = EngineHarness()
        h.register("page")
        let (id, _) = h.subscribe(key("page", 1), ["placeholderData": "previous", "select": "/n"])
        h.answer(key("page", 1), ["n": 1])
        let switched = h.setOptions(id, key: key("page", 2), nil)
        #expect(switched.map { describe($0) } == "success/fetching data=1 placeholder")
        #expect(h.cache.query(key("page", 2))?.state.data == nil)
        // Switching again before page 2 arrives still shows page 1 (the last key that had data).
        let again = h.setOptions(id, key: key("page", 3), nil)
        #expect(again.map { describe($0) } == "success/fetching data=1 placeholder")
        h.answer(key("page", 3), ["n": 3])
        #expect(h.trace(of: id) == ["success/idle data=1", "success/idle data=3"])
    }

    @Test func aPlaceholderTheSelectCannotResolveIsASelectErrorNotPlaceholderData() {
        let h = EngineHarness()
        h.register("px")
        let (id, first) = h.subscribe(key("px"), ["placeholderData": ["other": 1], "select": "/total"])
        #expect(describe(first) == "error/fetching error=-32602")
        #expect(first.data == nil && !first.isPlaceholderData)
        h.answer(key("px"), ["total": 3])
        #expect(h.trace(of: id) == ["success/idle data=3"])
    }

    @Test func B090_aQueryInErrorShowsItsErrorNotThePlaceholder() {
        let h = EngineHarness()
        h.register("pe")
        let (id, _) = h.subscribe(key("pe"), ["placeholderData": "ph", "retry": 0])
        h.fail(key("pe"))
        #expect(h.trace(of: id) == ["error/idle error=-32001 failures=1 invalidated"])
    }

    // MARK: - initialData + staleTime

    @Test func B093_initialDataOlderThanStaleTimeFetchesAtOnce() {
        let h = EngineHarness()
        h.register("i")
        let seededAt = h.clock.now - 5000
        let (_, view) = h.subscribe(
            key("i"), ["initialData": "seed", "initialDataUpdatedAt": .number(JSONNumber(seededAt)), "staleTime": 1000])
        #expect(describe(view, stale: true) == "success/fetching data=\"seed\" stale")
        #expect(view.dataUpdatedAt == seededAt && view.dataUpdateCount == 0 && !view.isFetched)
        #expect(h.sends.count == 1)
    }

    @Test func B093_recentInitialDataIsFreshThenFlipsStaleWithoutAFetch() {
        let h = EngineHarness()
        h.register("i")
        let seededAt = h.clock.now - 500
        let (id, view) = h.subscribe(
            key("i"), ["initialData": "seed", "initialDataUpdatedAt": .number(JSONNumber(seededAt)), "staleTime": 1000])
        #expect(describe(view, stale: true) == "success/idle data=\"seed\" fresh")
        h.advance(499)
        #expect(h.pushes(of: id).isEmpty)
        h.advance(1)
        #expect(h.trace(of: id, stale: true) == ["success/idle data=\"seed\" stale"])
        #expect(h.pushTimes(of: id) == [500])
        #expect(h.sends.isEmpty)
    }

    @Test func initialDataWithoutADateIsDatedNowAndStaleTimeZeroRefetchesIt() {
        let h = EngineHarness()
        h.register("i")
        let (id, view) = h.subscribe(key("i"), ["initialData": "seed"])
        #expect(describe(view, stale: true) == "success/fetching data=\"seed\" stale")
        #expect(view.dataUpdatedAt == h.clock.now)
        h.answer(key("i"), "real")
        #expect(h.trace(of: id) == ["success/idle data=\"real\""])
        #expect(h.pushes(of: id).last?.dataUpdateCount == 1)
    }

    @Test func B094_initialDataIsIgnoredWhenTheQueryHasData() {
        let h = EngineHarness()
        h.register("i")
        h.set(key("i"), "cached")
        let (_, view) = h.subscribe(key("i"), ["initialData": "seed", "staleTime": 60000])
        #expect(describe(view, stale: true) == "success/idle data=\"cached\" fresh")
        #expect(h.sends.isEmpty)
    }

    // MARK: - staleTime per subscription

    @Test func twoSubscriptionsOnOneKeySeeTheirOwnIsStale() {
        let h = EngineHarness()
        h.register("s")
        let (zero, _) = h.subscribe(key("s"))
        let (long, _) = h.subscribe(key("s"), ["staleTime": 1000])
        #expect(h.sends.count == 1)
        h.answer(key("s"), 1)
        #expect(h.trace(of: zero, stale: true) == ["success/idle data=1 stale"])
        #expect(h.trace(of: long, stale: true) == ["success/idle data=1 fresh"])
        h.advance(600)
        // Fresh for a third subscriber's staleTime: no fetch (refetchOnSubscribe "ifStale").
        let (_, third) = h.subscribe(key("s"), ["staleTime": 1000])
        #expect(describe(third, stale: true) == "success/idle data=1 fresh")
        #expect(h.sends.count == 1)
        h.advance(400)
        #expect(h.trace(of: long, stale: true) == ["success/idle data=1 fresh", "success/idle data=1 stale"])
        #expect(h.pushTimes(of: long) == [0, 1000])
        #expect(h.pushes(of: zero).count == 1)
        #expect(h.sends.count == 1)
        // The stale flip is pushed with a newer version than the data push.
        let versions = h.pushes(of: long).map(\.version)
        #expect(versions[1] > versions[0])
    }

    @Test func staticStaleTimeIsNeverStaleEvenAfterInvalidation() {
        let h = EngineHarness()
        h.register("s")
        let (fixed, _) = h.subscribe(key("s"), ["staleTime": "static"])
        let (plain, _) = h.subscribe(key("s"))
        h.answer(key("s"), 1)
        _ = h.cache.invalidate(filter(["key": ["s"]]), refetchType: .none)
        #expect(h.trace(of: fixed, stale: true).last == "success/idle data=1 invalidated fresh")
        #expect(h.trace(of: plain, stale: true).last == "success/idle data=1 invalidated stale")
    }

    // MARK: - enabled

    @Test func aDisabledSubscriptionShowsCachedDataAndFetchesOnlyOnRefetch() {
        let h = EngineHarness()
        h.register("e")
        h.set(key("e"), "cached")
        let (id, first) = h.subscribe(key("e"), ["enabled": false])
        #expect(describe(first, stale: true) == "success/idle data=\"cached\" fresh")
        _ = h.cache.invalidate(filter(["key": ["e"]]), refetchType: .all)
        #expect(h.sends.isEmpty)
        let outcome = h.refetch(id)
        #expect(h.sends.count == 1)
        h.answer(key("e"), "fetched")
        #expect(outcome.value.map { describe($0, stale: true) } == "success/idle data=\"fetched\" fresh")
        #expect(
            h.trace(of: id, stale: true) == [
                "success/idle data=\"cached\" invalidated fresh", "success/fetching data=\"cached\" invalidated fresh",
                "success/idle data=\"fetched\" fresh",
            ])
    }

    @Test func togglingEnabledFetchesOnlyWhenTurnedOnWithStaleData() {
        let h = EngineHarness()
        h.register("e")
        let (id, first) = h.subscribe(key("e"), ["enabled": false])
        #expect(describe(first, stale: true) == "pending/idle fresh")
        #expect(h.sends.isEmpty)
        let on = h.setOptions(id, ["enabled": true])
        #expect(on.map { describe($0, stale: true) } == "pending/fetching stale")
        h.answer(key("e"), "one")
        let off = h.setOptions(id, ["enabled": false])
        #expect(off.map { describe($0, stale: true) } == "success/idle data=\"one\" fresh")
        let freshOn = h.setOptions(id, ["enabled": true, "staleTime": 60000])
        #expect(freshOn.map { describe($0, stale: true) } == "success/idle data=\"one\" fresh")
        #expect(h.sends.count == 1)
        // Same options again: no fetch and no push (B099).
        _ = h.setOptions(id, ["enabled": true, "staleTime": 60000])
        #expect(h.sends.count == 1)
        #expect(h.trace(of: id) == ["success/idle data=\"one\""])
    }

    // MARK: - select errors

    @Test func B087_aSelectErrorStaysOnItsOwnSubscription() {
        let h = EngineHarness()
        h.register("sel")
        let (a, _) = h.subscribe(key("sel"), ["select": "/a"])
        let (b, _) = h.subscribe(key("sel"), ["select": "/b"])
        let (whole, _) = h.subscribe(key("sel"))
        h.answer(key("sel"), ["a": 1])
        #expect(h.trace(of: a) == ["success/idle data=1"])
        #expect(h.trace(of: b) == ["error/idle error=-32602"])
        #expect(
            h.pushes(of: b).first?.error == [
                "code": -32602, "message": "Select failed",
                "data": ["select": "/b", "reason": "the pointer does not resolve in the data"],
            ])
        #expect(h.trace(of: whole) == [#"success/idle data={"a":1}"#])
        #expect(h.stateText(key("sel")) == #"success/idle data={"a":1}"#)
        // b recovers with data its pointer resolves in.
        h.refetch(a)
        h.answer(key("sel"), ["a": 2, "b": 3])
        #expect(h.trace(of: b) == ["error/idle error=-32602", "error/fetching error=-32602", "success/idle data=3"])
        // a now fails and keeps its last good projection.
        h.refetch(a)
        h.answer(key("sel"), ["b": 4])
        #expect(h.trace(of: a).suffix(2) == ["success/fetching data=2", "error/idle data=2 error=-32602"])
        #expect(h.trace(of: b).last == "success/idle data=4")
        #expect(h.stateText(key("sel")) == #"success/idle data={"b":4}"#)
    }

    @Test func B088_aSelectErrorDoesNotFollowTheSubscriptionToAnotherKey() {
        let h = EngineHarness()
        h.register("sel")
        let (id, _) = h.subscribe(key("sel", 1), ["select": "/a"])
        h.answer(key("sel", 1), ["x": 1])
        #expect(h.trace(of: id) == ["error/idle error=-32602"])
        h.set(key("sel", 2), ["a": 2])
        let moved = h.setOptions(id, key: key("sel", 2), ["select": "/a", "staleTime": 60000])
        #expect(moved.map { describe($0) } == "success/idle data=2")
    }
}
