// Engine tests of manual writes (`query.set`) and of structural sharing of equal data.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct SetDataTests {
    @Test func B077_setOnAnUnknownKeyCreatesASuccessWithoutACall() {
        let h = EngineHarness()
        h.register("k")
        h.advance(42)
        let view = h.set(key("k"), "bar")
        #expect(describe(view) == #"success/idle data="bar""#)
        #expect(view.dataUpdatedAt == h.start + 42)
        #expect(view.dataUpdateCount == 1 && view.isFetched)
        #expect(h.sends.isEmpty)
        #expect(h.cache.query(key("k"))?.getAnswer == Array(#"{"data":"bar","dataUpdatedAt":1700000000042}"#.utf8))
    }

    @Test func B079_updatedAtSetsDataUpdatedAtAndStalenessCountsFromIt() {
        let h = EngineHarness()
        h.register("k")
        let view = h.set(key("k"), 1, updatedAt: h.start - 5000)
        #expect(view.dataUpdatedAt == h.start - 5000)
        let (_, reply) = h.subscribe(key("k"), ["staleTime": 1000])
        #expect(describe(reply) == "success/fetching data=1")
        #expect(h.sends.count == 1)

        h.set(key("j"), 2, updatedAt: h.start - 500)
        let (fresh, freshReply) = h.subscribe(key("j"), ["staleTime": 1000])
        #expect(describe(freshReply, stale: true) == "success/idle data=2 fresh")
        h.advance(500)
        #expect(h.trace(of: fresh, stale: true) == ["success/idle data=2 stale"])
        #expect(h.sends(for: key("j")).isEmpty)
    }

    @Test func B080_setDuringAFetchKeepsFetchingAndTheAnswerOverwrites() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"))
        h.set(key("k"), "manual")
        h.answer(key("k"), "fetched")
        #expect(h.trace(of: sub) == [#"success/fetching data="manual""#, #"success/idle data="fetched""#])
        #expect(h.cache.query(key("k"))?.state.dataUpdateCount == 2)
    }

    @Test func B081_setOnAnErrorGivesSuccessAndClearsTheError() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), ["retry": 0])
        h.fail(key("k"))
        let view = h.set(key("k"), 1)
        #expect(describe(view) == "success/idle data=1 failures=1")
        #expect(view.error == nil && !view.isInvalidated)
        #expect(view.errorUpdateCount == 1)
        #expect(
            h.trace(of: sub) == ["error/idle error=-32001 failures=1 invalidated", "success/idle data=1 failures=1"])
    }

    @Test func refetchReturningEqualDataKeepsTheDataVersion() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"))
        h.answer(key("k"), ["items": [1, 2, 3], "total": 3])
        let query = h.cache.query(key("k"))
        let block = query?.encodedDataAddress
        let getAnswer = query?.getAnswer
        h.advance(10)
        h.refetch(sub)
        h.answer(key("k"), ["total": 3, "items": [1, 2, 3]])
        #expect(block != nil && query?.encodedDataAddress == block)
        #expect(query?.state.dataUpdateCount == 2)
        #expect(query?.state.dataUpdatedAt == h.start + 10)
        #expect(query?.getAnswer != getAnswer)
        h.refetch(sub)
        h.answer(key("k"), ["total": 4, "items": [1, 2, 3, 4]])
        #expect(query?.state.data == ["items": [1, 2, 3, 4], "total": 4])
        #expect(query?.state.dataUpdateCount == 3)
    }

    @Test func setWithEqualDataKeepsTheDataVersionButCountsAnUpdate() {
        let h = EngineHarness()
        h.set(key("k"), [1, 2])
        let query = h.cache.query(key("k"))
        let block = query?.encodedDataAddress
        h.advance(5)
        let view = h.set(key("k"), [1, 2])
        #expect(block != nil && query?.encodedDataAddress == block)
        #expect(view.dataUpdateCount == 2 && view.dataUpdatedAt == h.start + 5)
    }

    @Test func mergePatchAppliesToTheCachedData() {
        let h = EngineHarness()
        h.set(key("k"), ["a": 1, "b": ["c": 2]])
        let view = try! h.cache.set(key: key("k"), .mergePatch(["b": ["c": nil, "d": 3], "e": 4]), updatedAt: nil)
        #expect(view.data == ["a": 1, "b": ["d": 3], "e": 4])
        let fresh = try! h.cache.set(key: key("m"), .mergePatch(["x": 1]), updatedAt: nil)
        #expect(fresh.data == ["x": 1])
    }
}
