// Engine tests of garbage collection: unused queries go exactly gcTime after they became unused,
// never while a fetch runs, and the longest gcTime ever given wins.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct GarbageCollectionTests {
    @Test func B029_defaultGcTimeRemovesTheEntryAt300000() {
        let h = EngineHarness()
        h.register("g")
        let (sub, _) = h.subscribe(key("g"))
        h.answer(key("g"), 1)
        h.unsubscribe(sub)
        h.advance(299_999)
        #expect(h.cache.query(key("g")) != nil)
        h.advance(1)
        #expect(h.cache.query(key("g")) == nil)
        #expect(h.cache.statistics.queries == 0)
    }

    @Test func B030_gcTimeZeroRemovesOnTheNextTickAndASubscriberReloads() {
        let h = EngineHarness()
        h.register("g")
        let (sub, _) = h.subscribe(key("g"), ["gcTime": 0])
        h.answer(key("g"), 1)
        h.unsubscribe(sub)
        #expect(h.cache.query(key("g")) != nil)
        h.advance(0)
        #expect(h.cache.query(key("g")) == nil)
        let (_, reply) = h.subscribe(key("g"), ["gcTime": 0])
        #expect(describe(reply) == "pending/fetching")
        #expect(h.sends.count == 2)
    }

    @Test func B031_infiniteGcTimeNeverRemoves() {
        let h = EngineHarness()
        h.register("g")
        let (sub, _) = h.subscribe(key("g"), ["gcTime": "Infinity"])
        h.answer(key("g"), 1)
        h.unsubscribe(sub)
        h.advance(10 * 86_400_000)
        #expect(h.cache.query(key("g")) != nil)
        #expect(h.cache.statistics.timers == 0)
    }

    @Test func B032_theLongestGcTimeEverGivenWins() {
        let h = EngineHarness()
        h.register("g")
        h.fetch(key("g"), ["gcTime": 5000])
        h.answer(key("g"), 1)
        let (sub, _) = h.subscribe(key("g"), ["gcTime": 10])
        h.answer(key("g"), 2)
        h.unsubscribe(sub)
        h.advance(1000)
        #expect(h.cache.query(key("g")) != nil)
        h.advance(3999)
        #expect(h.cache.query(key("g")) != nil)
        h.advance(1)
        #expect(h.cache.query(key("g")) == nil)
    }

    @Test func B033_aFetchStartedOnAnUnusedQueryHoldsItsCollection() {
        let h = EngineHarness()
        h.register("g")
        h.fetch(key("g"), ["gcTime": 1000])
        h.answer(key("g"), 1)
        h.advance(to: 500)
        try! h.cache.prefetch(key: key("g"), options: options(["gcTime": 1000]))
        #expect(h.sends.count == 2)
        h.advance(to: 2000)
        #expect(h.cache.query(key("g")) != nil)
        h.answer(key("g"), 2)
        h.advance(to: 2999)
        #expect(h.cache.query(key("g")) != nil)
        h.advance(to: 3000)
        #expect(h.cache.query(key("g")) == nil)
    }

    @Test func B033_unsubscribingDuringAFetchCollectsGcTimeAfterItSettles() {
        let h = EngineHarness()
        h.register("g", cancellable: false)
        let (sub, _) = h.subscribe(key("g"), ["gcTime": 1000])
        h.unsubscribe(sub)
        h.advance(to: 5000)
        #expect(h.stateText(key("g")) == "pending/fetching")
        h.answer(key("g"), 1)
        #expect(h.stateText(key("g")) == "success/idle data=1")
        h.advance(to: 5999)
        #expect(h.cache.query(key("g")) != nil)
        h.advance(to: 6000)
        #expect(h.cache.query(key("g")) == nil)
    }

    @Test func B034_entriesThatNeverHadASubscriberAreCollectedToo() {
        let h = EngineHarness()
        h.register("g")
        h.set(key("g", "set"), 1)
        h.fetch(key("g", "fetched"), ["gcTime": 2000])
        h.answer(key("g", "fetched"), 2)
        h.advance(1999)
        #expect(h.cache.query(key("g", "fetched")) != nil)
        h.advance(1)
        #expect(h.cache.query(key("g", "fetched")) == nil)
        h.advance(to: 299_999)
        #expect(h.cache.query(key("g", "set")) != nil)
        h.advance(to: 300_000)
        #expect(h.cache.query(key("g", "set")) == nil)
    }

    @Test func aSubscriberArrivingBeforeTheDeadlineKeepsTheEntry() {
        let h = EngineHarness()
        h.register("g")
        let (first, _) = h.subscribe(key("g"), ["gcTime": 1000, "staleTime": 60_000])
        h.answer(key("g"), 1)
        h.unsubscribe(first)
        h.advance(to: 999)
        let (second, reply) = h.subscribe(key("g"), ["gcTime": 1000, "staleTime": 60_000])
        #expect(describe(reply) == "success/idle data=1")
        h.advance(to: 5000)
        #expect(h.cache.query(key("g")) != nil)
        h.unsubscribe(second)
        h.advance(to: 5999)
        #expect(h.cache.query(key("g")) != nil)
        h.advance(to: 6000)
        #expect(h.cache.query(key("g")) == nil)
    }
}
