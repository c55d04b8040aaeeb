// Guards on the per-query memory layout: the state stored inline in every cached query stays small
// (its rarely-set fields live in a side object), and the `query.get` answer is spliced from the one
// cached copy of the encoded data rather than kept as a second copy.

import QuerydJSON
import Testing

@testable import QuerydCore

/// glibc's `malloc_usable_size` (not exported by the Glibc module): the usable bytes of a heap block.
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int

@Suite struct QueryFootprintTests {
    @Test func theInlineStateStaysSmall() {
        #expect(MemoryLayout<QueryState>.size <= 48)
    }

    @Test func rarelySetFieldsReadAsDefaultsAndCompareEqual() {
        var state = QueryState(initialData: nil, initialDataUpdatedAt: nil, now: 0)
        let fresh = state
        #expect(state.error == nil && state.failureCount == 0 && state.pageLinks == nil)
        state.failureCount = 2
        #expect(state != fresh)
        state.failureCount = 0
        #expect(state == fresh)
        state.reduce(.succeeded(data: 1, at: 5, fetched: true, pageLinks: nil))
        state.reduce(.failed(error: ["code": 1], at: 6))
        #expect(state.errorUpdateCount == 1 && state.errorUpdatedAt == 6 && state.failureCount == 1)
        #expect(state.failureReason == ["code": 1])
        let copy = state
        state.reduce(.fetchStarted(paused: false, direction: nil))
        #expect(state.failureCount == 0 && state.failureReason == nil)
        #expect(copy.failureCount == 1 && copy.failureReason == ["code": 1])
    }

    @Test func writeGetAnswerSplicesIntoTheCallersBuffer() {
        let h = EngineHarness()
        h.subscribe(key("none"))
        var out = Array("x".utf8)
        #expect(h.cache.query(key("none"))?.writeGetAnswer(to: &out) == false)
        #expect(out == Array("x".utf8))
        h.set(key("k"), ["b": 1, "a": [true]])
        let query = h.cache.query(key("k"))
        #expect(query?.writeGetAnswer(to: &out) == true)
        #expect(out == Array(#"x{"data":{"a":[true],"b":1},"dataUpdatedAt":1700000000000}"#.utf8))
        #expect(query?.getAnswer == Array(out.dropFirst()))
    }

    @Test func anUnusedQueryKeepsOnlyEncodedDataAndReadersStillSeeIt() {
        let h = EngineHarness()
        let value: JSONValue = ["i": 1, "pad": "xxxxxxxxxxxxxxxxxxxxxxxx", "list": [1.5, nil, "s"]]
        h.set(key("k"), value)
        let query = h.cache.query(key("k"))!
        #expect(query.keptParsedData == nil)
        #expect(query.getAnswer != nil)
        #expect(query.keptParsedData == nil)
        let block = query.encodedDataAddress
        #expect(query.state.data == value)
        #expect(query.keptParsedData == value)
        h.set(key("k"), value)
        #expect(query.encodedDataAddress == block)
        #expect(query.keptParsedData == nil)
        h.set(key("k"), ["i": 2])
        #expect(query.keptParsedData == nil)
        #expect(h.cache.state(of: key("k"))?.data == ["i": 2])
        #expect(query.getAnswer == Array(#"{"data":{"i":2},"dataUpdatedAt":1700000000000}"#.utf8))
    }

    @Test func readingAnUnusedQuerysStateOrPersistedDataLeavesNoParsedCopy() {
        let h = EngineHarness()
        h.set(key("k"), ["i": 1])
        let query = h.cache.query(key("k"))!
        #expect(h.cache.state(of: key("k"))?.data == ["i": 1])
        #expect(query.keptParsedData == nil && !query.hasActivity)
        #expect(h.cache.persistedEncoding(of: key("k"))?.data == Array(#"{"i":1}"#.utf8))
        #expect(query.keptParsedData == nil && !query.hasActivity)
    }

    @Test func aSubscribedQueryKeepsItsParsedData() {
        let h = EngineHarness()
        h.register("k")
        h.subscribe(key("k"))
        h.set(key("k"), ["i": 1])
        #expect(h.cache.query(key("k"))?.keptParsedData == ["i": 1])
    }

    @Test func anUnusedQueryWithDataNeedsNoSideObjectAndFitsIn104Bytes() {
        let h = EngineHarness()
        h.set(key("m", 123456), ["i": 123456, "pad": "xx"])
        let query = h.cache.query(key("m", 123456))!
        #expect(!query.hasActivity)
        #expect(query.hasData)
        // 104 bytes is glibc's 112-byte chunk; one more field would make it 128.
        #expect(mallocUsableSize(Unmanaged.passUnretained(query).toOpaque()) <= 104)
        #expect(MemoryLayout<QueryKey>.size <= 25)
    }

    @Test func theActivityObjectComesAndGoesWithUse() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"))
        let query = h.cache.query(key("k"))!
        #expect(query.hasActivity)
        h.answer(key("k"), 1)
        h.unsubscribe(sub)
        #expect(query.subscriptions.isEmpty && query.run == nil)
        h.set(key("k"), 2)
        #expect(!query.hasActivity)
        #expect(query.state.data == 2)
    }
}
