// Engine tests of garbage collection when many queries share a gc deadline: they share one timer,
// each is still collected at exactly its own gcTime, and one that is used again leaves the group.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct GarbageCollectionBucketTests {
    @Test func queriesWrittenInTheSameMillisecondShareOneTimerAndGoTogether() {
        let h = EngineHarness()
        for i in 0..<100 { h.set(key("b", .number(JSONNumber(i))), 1) }
        #expect(h.cache.statistics.timers == 1)
        h.advance(299_999)
        #expect(h.cache.statistics.queries == 100)
        h.advance(1)
        #expect(h.cache.statistics.queries == 0)
        #expect(h.cache.statistics.timers == 0)
    }

    @Test func queriesWrittenAtDifferentTimesGoAtTheirOwnTimes() {
        let h = EngineHarness()
        h.set(key("a"), 1)
        h.advance(10)
        h.set(key("b"), 1)
        h.set(key("c"), 1)
        #expect(h.cache.statistics.timers == 2)
        h.advance(299_989)
        #expect(h.cache.query(key("a")) != nil)
        h.advance(1)
        #expect(h.cache.query(key("a")) == nil)
        #expect(h.cache.query(key("b")) != nil)
        h.advance(9)
        #expect(h.cache.query(key("b")) != nil && h.cache.query(key("c")) != nil)
        h.advance(1)
        #expect(h.cache.query(key("b")) == nil && h.cache.query(key("c")) == nil)
    }

    @Test func aQueryUsedAgainLeavesItsGroupAndGoesGcTimeAfterItsLastUse() {
        let h = EngineHarness()
        h.register("b")
        h.set(key("b", 1), 1)
        h.set(key("b", 2), 1)
        h.advance(1000)
        let (sub, _) = h.subscribe(key("b", 1))
        h.answer(key("b", 1), 2)
        h.advance(1000)
        h.unsubscribe(sub)
        h.advance(298_000)
        #expect(h.cache.query(key("b", 2)) == nil)
        #expect(h.cache.query(key("b", 1)) != nil)
        h.advance(1999)
        #expect(h.cache.query(key("b", 1)) != nil)
        h.advance(1)
        #expect(h.cache.query(key("b", 1)) == nil)
        #expect(h.cache.statistics.timers == 0)
    }

    @Test func aRemovedQueryDoesNotHoldItsGroupsTimer() {
        let h = EngineHarness()
        h.set(key("r"), 1)
        #expect(h.cache.statistics.timers == 1)
        _ = h.cache.removeQueries(QueryFilter())
        #expect(h.cache.statistics.timers == 0)
    }
}
