// A query's dataVersion (protocol 2): the version at which its data last changed, kept in 16 bits
// beside the version. It stays while only other fields change, moves with new data (not with an
// equal write), and past 65,536 versions without a data change it moves on (never back, never to
// a version that named other data).

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct DataVersionTests {
    @Test func itMovesWithTheDataOnly() {
        let h = EngineHarness()
        h.set(key("d"), ["n": 1])
        let query = h.cache.query(key("d"))!
        let first = query.dataVersion
        #expect(first == query.version)
        _ = h.cache.invalidate(filter(["key": ["d"]]), refetchType: .none)
        #expect(query.version > first)
        #expect(query.dataVersion == first)
        h.set(key("d"), ["n": 1])
        #expect(query.dataVersion == first)
        h.set(key("d"), ["n": 2])
        #expect(query.dataVersion == query.version)
        #expect(h.cache.state(of: key("d"))?.dataVersion == query.version)
    }

    @Test func pastSixteenBitsOfVersionsItMovesOnButNeverBack() {
        let h = EngineHarness()
        h.set(key("d"), 1)
        let query = h.cache.query(key("d"))!
        let changedAt = query.dataVersion
        for _ in 0..<65_535 { query.bumpVersion() }
        #expect(query.dataVersion == changedAt)
        query.bumpVersion()
        #expect(query.dataVersion == changedAt + 65_536)
        #expect(query.dataVersion <= query.version)
        h.set(key("d"), 2)
        #expect(query.dataVersion == query.version)
    }
}
