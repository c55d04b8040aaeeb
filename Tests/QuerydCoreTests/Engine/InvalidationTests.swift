// Engine tests of invalidation: what is marked, what is refetched per refetchType, disabled and
// static subscribers, invalidation during fetches, and partial matching of object keys.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct InvalidationTests {
    @Test func B060_invalidateMarksEveryMatchAndRefetchesOnlyActiveOnes() {
        let h = EngineHarness()
        h.register("todos")
        h.register("other")
        let (root, _) = h.subscribe(key("todos"))
        h.answer(key("todos"), 0)
        let (one, _) = h.subscribe(key("todos", 1))
        h.answer(key("todos", 1), 1)
        h.fetch(key("todos", 2))
        h.answer(key("todos", 2), 2)
        h.set(key("todos", 3), 3)
        h.subscribe(key("todos", 3), ["enabled": false])
        h.set(key("other"), 9)
        let before = h.sends.count
        let matched = h.cache.invalidate(filter(["key": ["todos"]]), refetchType: .active)
        #expect(matched == 4)
        // Refetches run in canonical key-text order: `["todos",1]` sorts before `["todos"]`.
        #expect(h.sends.dropFirst(before).map(\.key) == [key("todos", 1), key("todos")])
        #expect(
            h.trace(of: root).suffix(2) == ["success/idle data=0 invalidated", "success/fetching data=0 invalidated"])
        #expect(
            h.trace(of: one).suffix(2) == ["success/idle data=1 invalidated", "success/fetching data=1 invalidated"])
        #expect(h.stateText(key("todos", 2)) == "success/idle data=2 invalidated")
        #expect(h.stateText(key("todos", 3)) == "success/idle data=3 invalidated")
        #expect(h.stateText(key("other")) == "success/idle data=9")
        h.answer(key("todos"), 10)
        #expect(h.trace(of: root).last == "success/idle data=10")
    }

    @Test func B061_refetchTypeSelectsWhatIsRefetched() {
        /// Invalidates four queries under ["t"] and returns (matched, all marked, keys refetched).
        func scenario(_ type: RefetchType) -> (Int, Bool, [QueryKey]) {
            let h = EngineHarness()
            h.register("t")
            h.subscribe(key("t", "active"))
            h.answer(key("t", "active"), 1)
            h.fetch(key("t", "inactive"))
            h.answer(key("t", "inactive"), 2)
            h.set(key("t", "disabled"), 3)
            h.subscribe(key("t", "disabled"), ["enabled": false])
            let (gone, _) = h.subscribe(key("t", "never"), ["enabled": false])
            h.unsubscribe(gone)
            let before = h.sends.count
            let matched = h.cache.invalidate(filter(["key": ["t"]]), refetchType: type)
            let marked = h.cache.list(filter(["key": ["t"]])).allSatisfy(\.isInvalidated)
            return (matched, marked, h.sends.dropFirst(before).map(\.key))
        }
        let none = scenario(.none)
        #expect(none.0 == 4 && none.1 && none.2 == [])
        let active = scenario(.active)
        #expect(active.0 == 4 && active.1 && active.2 == [key("t", "active")])
        let inactive = scenario(.inactive)
        #expect(inactive.0 == 4 && inactive.1 && inactive.2 == [key("t", "inactive")])
        let all = scenario(.all)
        #expect(all.0 == 4 && all.1 && all.2 == [key("t", "active"), key("t", "inactive")])
    }

    @Test func B062_aDisabledSubscriberIsNotRefetchedUntilEnabled() {
        let h = EngineHarness()
        h.register("d")
        h.set(key("d"), 1)
        let (sub, _) = h.subscribe(key("d"), ["enabled": false, "staleTime": "Infinity"])
        _ = h.cache.invalidate(filter(["key": ["d"]]), refetchType: .all)
        #expect(h.sends.isEmpty)
        let enabled = h.setOptions(sub, ["enabled": true, "staleTime": "Infinity"])
        #expect(enabled.map { describe($0) } == "success/fetching data=1 invalidated")
        #expect(h.sends.count == 1)
    }

    @Test func B063_invalidateDuringABackgroundRefetchReplacesIt() {
        let h = EngineHarness()
        h.register("i", cancellable: true)
        let (sub, _) = h.subscribe(key("i"))
        h.answer(key("i"), 1)
        h.refetch(sub)
        let replaced = h.sends[1]
        _ = h.cache.invalidate(filter(["key": ["i"]]), refetchType: .active)
        #expect(h.sends.count == 3)
        #expect(h.cancels == [replaced.attempt])
        h.answer(key("i"), 2)
        #expect(
            h.trace(of: sub) == [
                "success/idle data=1", "success/fetching data=1", "success/fetching data=1 invalidated",
                "success/idle data=2",
            ])
    }

    @Test func B064_invalidateDuringTheInitialLoadMakesNoExtraCall() {
        let h = EngineHarness()
        h.register("i", cancellable: true)
        let (sub, _) = h.subscribe(key("i"))
        _ = h.cache.invalidate(filter(["key": ["i"]]), refetchType: .active)
        #expect(h.sends.count == 1 && h.cancels.isEmpty)
        h.answer(key("i"), 1)
        #expect(h.trace(of: sub) == ["pending/fetching invalidated", "success/idle data=1"])
    }

    @Test func B065_invalidatingAnInvalidatedQueryPushesNothing() {
        let h = EngineHarness()
        h.register("i")
        h.set(key("i"), 1)
        let (sub, _) = h.subscribe(key("i"), ["staleTime": "Infinity"])
        _ = h.cache.invalidate(filter(["key": ["i"]]), refetchType: .none)
        let version = h.cache.query(key("i"))?.version
        _ = h.cache.invalidate(filter(["key": ["i"]]), refetchType: .none)
        #expect(h.trace(of: sub) == ["success/idle data=1 invalidated"])
        #expect(h.cache.query(key("i"))?.version == version)
    }

    @Test func B066_anInvalidatedInactiveQueryRefetchesOnTheNextSubscribe() {
        let h = EngineHarness()
        h.register("i")
        let (first, _) = h.subscribe(key("i"), ["staleTime": "Infinity"])
        h.answer(key("i"), 1)
        h.unsubscribe(first)
        _ = h.cache.invalidate(filter(["key": ["i"]]), refetchType: .active)
        #expect(h.sends.count == 1)
        let (_, reply) = h.subscribe(key("i"), ["staleTime": "Infinity"])
        #expect(describe(reply) == "success/fetching data=1 invalidated")
        #expect(h.sends.count == 2)
    }

    @Test func B067_objectKeysMatchPartiallyUnlessExact() {
        let h = EngineHarness()
        h.set(key(["a": "a", "b": "b"]), 1)
        h.set(key(["a": "z", "b": "b"]), 2)
        #expect(h.cache.invalidate(filter(["key": [["a": "a"]]]), refetchType: .none) == 1)
        #expect(h.stateText(key(["a": "a", "b": "b"])) == "success/idle data=1 invalidated")
        #expect(h.stateText(key(["a": "z", "b": "b"])) == "success/idle data=2")
        #expect(h.cache.invalidate(filter(["key": [["a": "z"]], "exact": true]), refetchType: .none) == 0)
        #expect(h.cache.invalidate(filter(["key": [["b": "b", "a": "z"]], "exact": true]), refetchType: .none) == 1)
    }

    @Test func B068_aStaticSubscriberIsMarkedButNeverRefetched() {
        let h = EngineHarness()
        h.register("i")
        h.set(key("i"), 1)
        let (sub, _) = h.subscribe(key("i"), ["staleTime": "static"])
        #expect(h.cache.invalidate(filter(["key": ["i"]]), refetchType: .all) == 1)
        #expect(h.cache.refetchQueries(filter(["key": ["i"]])) == 1)
        #expect(h.sends.isEmpty)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=1 invalidated fresh"])
    }
}
