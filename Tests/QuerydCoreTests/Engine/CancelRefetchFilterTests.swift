// Engine tests of `cancelRefetch` on the filter operations (issue 16 §3): `invalidate` and
// `refetchQueries` replace a fetch in flight by default and join it with `cancelRefetch: false`, as
// TanStack's refetchQueries does; `resetQueries` drops the fetch first either way.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct CancelRefetchFilterTests {
    /// A subscribed query ["c"] with data 1 and a refetch in flight (the second send).
    private func refetching() -> (EngineHarness, SubscriptionID) {
        let h = EngineHarness()
        h.register("c")
        let (sub, _) = h.subscribe(key("c"))
        h.answer(key("c"), 1)
        _ = h.cache.refetchQueries(filter(["key": ["c"]]))
        return (h, sub)
    }

    @Test func invalidateWithoutCancelRefetchJoinsTheFetchInFlight() {
        let (h, sub) = refetching()
        #expect(h.cache.invalidate(filter(["key": ["c"]]), refetchType: .active, cancelRefetch: false) == 1)
        #expect(h.sends.count == 2)
        #expect(h.cancels.isEmpty)
        h.answer(key("c"), 2)
        #expect(
            h.trace(of: sub) == [
                "success/idle data=1", "success/fetching data=1", "success/fetching data=1 invalidated",
                "success/idle data=2",
            ])
        #expect(h.cache.query(key("c"))?.state.isInvalidated == false)
    }

    @Test func invalidateByDefaultReplacesTheFetchInFlight() {
        let (h, _) = refetching()
        _ = h.cache.invalidate(filter(["key": ["c"]]), refetchType: .active)
        #expect(h.sends.count == 3)
        #expect(h.cancels == [h.sends[1].attempt])
    }

    @Test func refetchQueriesJoinsOrReplaces() {
        let (h, sub) = refetching()
        #expect(h.cache.refetchQueries(filter(["key": ["c"]]), cancelRefetch: false) == 1)
        #expect(h.sends.count == 2)
        #expect(h.cancels.isEmpty)
        _ = h.cache.refetchQueries(filter(["key": ["c"]]), cancelRefetch: true)
        #expect(h.sends.count == 3)
        #expect(h.cancels == [h.sends[1].attempt])
        h.answer(key("c"), 3)
        #expect(h.trace(of: sub).last == "success/idle data=3")
    }

    @Test func resetDropsTheFetchWhateverCancelRefetchSays() {
        let (h, sub) = refetching()
        #expect(h.cache.resetQueries(filter(["key": ["c"]]), cancelRefetch: false) == 1)
        #expect(h.cancels == [h.sends[1].attempt])
        #expect(h.sends.count == 3)
        #expect(h.trace(of: sub).suffix(2) == ["pending/idle", "pending/fetching"])
    }
}
