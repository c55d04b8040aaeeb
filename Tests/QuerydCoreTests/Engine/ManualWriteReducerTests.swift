// A manual write stores what the reducer's `succeeded` action (not fetched) makes of the state
// before it, whichever way `Query.reduceManualWrite` takes: field by field for a state without
// extras, through the reducer for one with them.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct ManualWriteReducerTests {
    /// Writes `data` to `key` and checks the state and version against the reducer's.
    private func expectWriteMatchesReducer(
        _ h: EngineHarness, _ key: QueryKey, _ data: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let query = h.cache.query(key)!
        var expected = query.state
        let version = query.version
        h.advance(7)
        expected.reduce(.succeeded(data: data, at: h.cache.now, fetched: false, pageLinks: nil))
        h.set(key, data)
        #expect(query.state == expected, sourceLocation: sourceLocation)
        #expect(query.version == version + 1, sourceLocation: sourceLocation)
    }

    @Test func aWriteOverInvalidatedDataMatchesTheReducer() {
        let h = EngineHarness()
        h.set(key("k"), 1)
        _ = h.cache.invalidate(filter(["key": ["k"]]), refetchType: .none)
        #expect(h.cache.query(key("k"))?.isInvalidated == true)
        #expect(h.cache.query(key("k"))?.extras == nil)
        expectWriteMatchesReducer(h, key("k"), ["v": 2])
        #expect(h.cache.query(key("k"))?.isInvalidated == false)
    }

    @Test func aWriteDuringAPendingFetchMatchesTheReducer() {
        let h = EngineHarness()
        h.fetch(key("p"))
        #expect(h.cache.query(key("p"))?.fetchStatus == .paused)
        #expect(h.cache.query(key("p"))?.extras == nil)
        expectWriteMatchesReducer(h, key("p"), "x")
        #expect(h.cache.query(key("p"))?.fetchStatus == .paused)
    }

    @Test func aWriteOverAnErrorMatchesTheReducer() {
        let h = EngineHarness()
        h.register("e")
        h.fetch(key("e"), ["retry": 0])
        h.fail(key("e"))
        #expect(h.cache.query(key("e"))?.extras != nil)
        expectWriteMatchesReducer(h, key("e"), [1, 2])
        #expect(h.cache.query(key("e"))?.state.error == nil)
    }
}
