// Engine tests of per-subscription view options: select (JSON Pointer), placeholder data and
// initial data (which, unlike the placeholder, fills the cache).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct SubscriptionOptionsTests {
    @Test func B085_selectProjectsTheSubscribersDataWhileTheCacheKeepsTheWhole() {
        let h = EngineHarness()
        h.register("c")
        let (sub, _) = h.subscribe(key("c"), ["select": "/count"])
        h.answer(key("c"), ["count": 3, "other": "x"])
        #expect(h.trace(of: sub) == ["success/idle data=3"])
        #expect(h.cache.query(key("c"))?.state.data == ["count": 3, "other": "x"])
        let block = h.cache.query(key("c"))?.encodedDataAddress
        h.advance(10)
        h.refetch(sub)
        h.answer(key("c"), ["other": "x", "count": 3])
        #expect(h.trace(of: sub) == ["success/idle data=3", "success/fetching data=3", "success/idle data=3"])
        #expect(block != nil && h.cache.query(key("c"))?.encodedDataAddress == block)
    }

    @Test func B087_aSelectErrorShowsTheLastGoodProjectionToThatSubscriberOnly() {
        let h = EngineHarness()
        h.register("c")
        let (selecting, _) = h.subscribe(key("c"), ["select": "/count"])
        let (plain, _) = h.subscribe(key("c"))
        h.answer(key("c"), ["count": 1])
        h.refetch(selecting)
        h.answer(key("c"), ["other": 2])
        #expect(
            h.trace(of: selecting) == [
                "success/idle data=1", "success/fetching data=1", "error/idle data=1 error=-32602",
            ])
        #expect(h.pushes(of: selecting).last?.isPlaceholderData == false)
        #expect(
            h.trace(of: plain) == [
                #"success/idle data={"count":1}"#, #"success/fetching data={"count":1}"#,
                #"success/idle data={"other":2}"#,
            ])
        #expect(h.stateText(key("c")) == #"success/idle data={"other":2}"#)
    }

    @Test func B089_placeholderIsShownUntilTheDataArrivesAndIsNeverCached() {
        let h = EngineHarness()
        h.register("p")
        let (sub, reply) = h.subscribe(key("p"), ["placeholderData": ["n": 0], "select": "/n"])
        #expect(describe(reply) == "success/fetching data=0 placeholder")
        #expect(reply.isPlaceholderData && reply.isSuccess && !reply.isLoading)
        #expect(h.cache.query(key("p"))?.getAnswer == nil)
        #expect(h.stateText(key("p")) == "pending/fetching")
        h.answer(key("p"), ["n": 5])
        #expect(h.trace(of: sub) == ["success/idle data=5"])
        #expect(h.pushes(of: sub).last?.isPlaceholderData == false)
    }

    @Test func B092_initialDataFillsTheCacheWithoutCountingAsAFetch() {
        let h = EngineHarness()
        h.register("i")
        let (_, reply) = h.subscribe(key("i"), ["initialData": [1], "staleTime": 60_000])
        #expect(describe(reply) == "success/idle data=[1]")
        #expect(reply.dataUpdateCount == 0 && !reply.isFetched)
        #expect(reply.dataUpdatedAt == h.start)
        #expect(h.sends.isEmpty)
        #expect(h.cache.query(key("i"))?.state.data == [1])

        let (_, dated) = h.subscribe(
            key("j"),
            ["initialData": [2], "initialDataUpdatedAt": .number(JSONNumber(h.start - 10)), "staleTime": 60_000])
        #expect(dated.dataUpdatedAt == h.start - 10)
        #expect(h.sends.isEmpty)
    }

    /// TanStack pushes the flip at about 501 ms; the engine's stale timer fires at exactly 500 ms.
    @Test func B093_initialDataUpdatedAtDecidesTheFirstFetch() {
        let h = EngineHarness()
        h.register("i")
        let (_, old) = h.subscribe(
            key("i", "old"),
            ["initialData": 1, "initialDataUpdatedAt": .number(JSONNumber(h.start - 5000)), "staleTime": 1000])
        #expect(describe(old) == "success/fetching data=1")
        #expect(h.sends(for: key("i", "old")).count == 1)

        let (recent, reply) = h.subscribe(
            key("i", "recent"),
            ["initialData": 2, "initialDataUpdatedAt": .number(JSONNumber(h.start - 500)), "staleTime": 1000])
        #expect(describe(reply, stale: true) == "success/idle data=2 fresh")
        h.advance(499)
        #expect(h.pushes(of: recent).isEmpty)
        h.advance(1)
        #expect(h.trace(of: recent, stale: true) == ["success/idle data=2 stale"])
        #expect(h.sends(for: key("i", "recent")).isEmpty)
    }

    @Test func B094_initialDataAppearsOnAQueryFetchingWithoutDataAndResetReturnsToIt() {
        let h = EngineHarness()
        h.register("i")
        h.fetch(key("i"))
        let (sub, reply) = h.subscribe(key("i"), ["initialData": 0, "staleTime": 60_000])
        #expect(describe(reply) == "success/fetching data=0")
        #expect(h.sends.count == 1)
        h.answer(key("i"), 7)
        #expect(h.trace(of: sub) == ["success/idle data=7"])
        _ = h.cache.resetQueries(filter(["key": ["i"]]))
        #expect(h.trace(of: sub).suffix(2) == ["success/idle data=0", "success/fetching data=0"])
    }

    /// Initial data arriving on a query that other subscribers watch is a state change they see
    /// (TanStack applies it through a dispatch, which notifies every observer).
    @Test func B094_initialDataAppliedMidFetchIsPushedToExistingSubscribers() {
        let h = EngineHarness()
        h.register("i")
        let (earlier, _) = h.subscribe(key("i"))
        h.subscribe(key("i"), ["initialData": 0, "staleTime": 60_000])
        #expect(h.trace(of: earlier) == ["success/fetching data=0"])
    }
}
