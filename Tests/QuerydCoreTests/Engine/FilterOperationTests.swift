// Engine tests of the filter operations other than invalidate: reset, remove, cancel, refetch and
// list, and that a prefix filter only touches the queries under that prefix.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct FilterOperationTests {
    @Test func B074_resetPushesTheInitialStateThenRefetchesActiveQueries() {
        let h = EngineHarness()
        h.register("r")
        let (sub, _) = h.subscribe(key("r"))
        h.answer(key("r"), 1)
        h.fetch(key("r", "inactive"))
        h.answer(key("r", "inactive"), 2)
        #expect(h.cache.resetQueries(filter(["key": ["r"]])) == 2)
        #expect(h.trace(of: sub) == ["success/idle data=1", "pending/idle", "pending/fetching"])
        #expect(h.sends.map(\.key) == [key("r"), key("r", "inactive"), key("r")])
        #expect(h.stateText(key("r", "inactive")) == "pending/idle")
        h.answer(key("r"), 3)
        #expect(h.trace(of: sub).last == "success/idle data=3")
    }

    @Test func B074_resetGoesBackToTheInitialData() {
        let h = EngineHarness()
        h.register("r")
        let (sub, reply) = h.subscribe(key("r"), ["initialData": 0, "staleTime": 60_000])
        #expect(describe(reply) == "success/idle data=0")
        h.refetch(sub)
        h.answer(key("r"), 5)
        _ = h.cache.resetQueries(filter(["key": ["r"]]))
        #expect(h.trace(of: sub).suffix(2) == ["success/idle data=0", "success/fetching data=0"])
        #expect(h.cache.query(key("r"))?.state.dataUpdateCount == 0)
    }

    /// Upstream matches with a predicate on the state; here a `stale` filter shows the same rule:
    /// the matched set is taken before the reset, so the reset queries are refetched.
    @Test func B075_theMatchedSetIsCapturedBeforeTheReset() {
        let h = EngineHarness()
        h.register("r")
        let (sub, _) = h.subscribe(key("r"), ["staleTime": 60_000])
        h.answer(key("r"), 1)
        #expect(h.cache.resetQueries(filter(["key": ["r"], "stale": false])) == 1)
        #expect(h.sends.count == 2)
        #expect(h.trace(of: sub).last == "pending/fetching")
    }

    @Test func B076_resetDuringAFetchCancelsItAndRejectsTheCaller() {
        let h = EngineHarness()
        h.register("r", cancellable: true)
        let caller = h.fetch(key("r"))
        _ = h.cache.resetQueries(filter(["key": ["r"]]))
        #expect(caller.failure?.code == -32003)
        #expect(h.cancels == [h.sends[0].attempt])
        #expect(h.stateText(key("r")) == "pending/idle")
        #expect(h.cache.state(of: key("r"))?.error == nil)
        h.answer(key("r"), 1)
        #expect(h.stateText(key("r")) == "pending/idle")
        #expect(h.sends.count == 1)
    }

    /// TanStack's reset of an inactive idle query clears its gc timer for good (B036, a quirk); the
    /// engine re-arms it, so the reset entry is still collected gcTime later.
    @Test func B036_resetOfAnInactiveQueryReArmsItsCollection() {
        let h = EngineHarness()
        h.register("r")
        h.fetch(key("r"), ["gcTime": 1000])
        h.answer(key("r"), 1)
        h.advance(to: 500)
        _ = h.cache.resetQueries(filter(["key": ["r"]]))
        h.advance(to: 1499)
        #expect(h.cache.query(key("r")) != nil)
        h.advance(to: 1500)
        #expect(h.cache.query(key("r")) == nil)
    }

    /// TanStack deletes a subscribed entry silently (B037); the engine re-creates it empty at once
    /// and pushes that state, so a subscriber never points at a removed entry.
    @Test func B037_removeOfASubscribedQueryRecreatesItEmptyAndPushes() {
        let h = EngineHarness()
        h.register("r")
        let (sub, _) = h.subscribe(key("r"))
        h.answer(key("r"), 1)
        #expect(h.cache.removeQueries(filter(["key": ["r"]])) == 1)
        #expect(h.trace(of: sub) == ["success/idle data=1", "pending/idle"])
        #expect(h.sends.count == 1)
        #expect(h.stateText(key("r")) == "pending/idle")
        h.refetch(sub)
        h.answer(key("r"), 2)
        #expect(h.trace(of: sub).suffix(2) == ["pending/fetching", "success/idle data=2"])
    }

    @Test func removeKeepsTheVersionGrowingForTheSubscriber() {
        let h = EngineHarness()
        h.register("r")
        let (sub, reply) = h.subscribe(key("r"))
        h.answer(key("r"), 1)
        _ = h.cache.removeQueries(filter(["key": ["r"]]))
        let versions = [reply.version] + h.pushes(of: sub).map(\.version)
        #expect(versions.count == 3)
        #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "versions: \(versions)")
    }

    @Test func removeOfAnUnsubscribedQueryForgetsItAndRejectsItsCaller() {
        let h = EngineHarness()
        h.register("r")
        let caller = h.fetch(key("r", 1))
        h.set(key("r", 2), 2)
        h.set(key("s"), 3)
        #expect(h.cache.removeQueries(filter(["key": ["r"]])) == 2)
        #expect(caller.failure?.code == -32003)
        #expect(h.cache.query(key("r", 1)) == nil && h.cache.query(key("r", 2)) == nil)
        #expect(h.cache.query(key("s")) != nil)
    }

    @Test func cancelQueriesRevertsEveryMatchedFetch() {
        let h = EngineHarness()
        h.register("c", cancellable: true)
        h.set(key("c", 1), 1)
        h.fetch(key("c", 1))
        let waiting = h.fetch(key("c", 2))
        #expect(h.cache.cancelQueries(filter(["key": ["c"]])) == 2)
        #expect(h.stateText(key("c", 1)) == "success/idle data=1")
        #expect(h.stateText(key("c", 2)) == "pending/idle")
        #expect(waiting.failure?.code == -32003)
        #expect(h.cancels.count == 2)
    }

    @Test func listShowsQueryLevelStateWithObserverCountsInKeyOrder() {
        let h = EngineHarness()
        h.set(key("l", 2), 2)
        h.set(key("l", 1), 1)
        h.subscribe(key("l", 1), ["enabled": false])
        h.subscribe(key("l", 1), ["enabled": false], connection: EngineHarness.otherClient)
        let listed = h.cache.list(filter(["key": ["l"]]))
        #expect(listed.map(\.key) == [key("l", 1), key("l", 2)])
        #expect(listed.map(\.observers) == [2, 0])
        #expect(h.cache.list(filter(["key": ["l"], "type": "active"])).isEmpty)
        #expect(h.cache.list(filter(["key": ["l"], "type": "inactive"])).count == 2)
    }

    @Test func invalidatingAPrefixTouchesOnlyTheQueriesUnderIt() {
        let h = EngineHarness()
        h.register("a")
        h.register("b")
        for i in 0..<10_000 {
            h.set(key("a", .number(JSONNumber(i))), 0)
            h.subscribe(key("a", .number(JSONNumber(i))), ["staleTime": "Infinity"])
        }
        for i in 0..<10 {
            h.set(key("b", .number(JSONNumber(i))), 0)
            h.subscribe(key("b", .number(JSONNumber(i))), ["staleTime": "Infinity"])
        }
        #expect(h.sends.isEmpty && h.allPushes.isEmpty)
        #expect(h.cache.invalidate(filter(["key": ["b"]]), refetchType: .active) == 10)
        #expect(h.sends.count == 10)
        #expect(h.sends.allSatisfy { $0.key.elements.first == "b" })
        #expect(h.allPushes.count == 20)
        #expect(h.allPushes.allSatisfy { $0.1.key.elements.first == "b" })
        #expect(h.cache.list(filter(["key": ["a"], "stale": true])).isEmpty)
    }
}
