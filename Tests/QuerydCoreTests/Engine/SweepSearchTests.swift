// The search of a filter sweep (issue 20): finding the matches of a filter over many queries takes
// bounded steps too, one per `continueSweeps()`, while queries come and go. It matches the queries
// present when it began and still present when it reaches them; the ones created meanwhile are
// left out, and the refetches go out in key order as when done at once.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct SweepSearchTests {
    private var invalidateAll: FilterOperation { .invalidate(refetchType: .all, cancelRefetch: true) }

    /// A harness with a fetcher for `prefix` and `count` queries made by `key`, with data.
    private func filled(_ count: Int, _ key: (Int) -> QueryKey) -> EngineHarness {
        let h = EngineHarness()
        h.cache.sweepSliceSize = 4
        h.register("m")
        h.register("u")
        for n in 0..<count { h.set(key(n), .number(JSONNumber(n))) }
        return h
    }

    private static func flat(_ n: Int) -> QueryKey { key("m", .number(JSONNumber(n))) }
    private static func deep(_ n: Int) -> QueryKey { key("u", .number(JSONNumber(n)), "p") }

    @Test func theSearchTakesManyTurnsLeavesOutNewQueriesAndSkipsRemovedOnes() {
        let h = filled(300, Self.flat)
        let outcome = h.cache.sweep(invalidateAll, filter(["key": ["m"]]))
        guard case .pending = outcome else {
            Issue.record("expected a sweep, got \(outcome)")
            return
        }
        var created: [QueryKey] = []
        var removed: [QueryKey] = []
        var searchTurns = 0
        // While the search runs: create a query and remove one of the first ones each turn.
        while h.cache.sweepNewcomers != nil {
            _ = h.cache.continueSweeps()
            searchTurns += 1
            let fresh = Self.flat(1_000 + searchTurns)
            h.set(fresh, 0)
            created.append(fresh)
            let gone = Self.flat(searchTurns * 7 % 300)
            if h.cache.query(gone) != nil,
                h.cache.removeQueries(filter(["key": .array(gone.elements), "exact": true])) == 1
            {
                removed.append(gone)
            }
        }
        #expect(searchTurns > 5, "the search should take several turns")
        #expect(h.sends.isEmpty, "nothing is refetched before the search and sort are done")
        var finished: [(SweepID, matched: Int)] = []
        while h.cache.hasPendingSweeps { finished += h.cache.continueSweeps() }
        let matched = finished.map(\.matched).first ?? -1
        // Counted: the first ones still there when the search reached them.
        #expect(matched >= 300 - removed.count && matched <= 300)
        let kept = (0..<300).map(Self.flat).filter { !removed.contains($0) }
        #expect(h.sends.map(\.key) == kept.sorted(by: <))
        for key in created { #expect(h.cache.query(key)?.state.isInvalidated == false) }
        #expect(h.cache.sweepGraveyard == nil)
    }

    @Test func aSweepOverManyChildNodesInvalidatesEachOnceInKeyOrder() {
        let h = filled(150, Self.deep)
        guard case .pending = h.cache.sweep(invalidateAll, filter(["key": ["u"]])) else {
            Issue.record("expected a sweep")
            return
        }
        var finished: [(SweepID, matched: Int)] = []
        while h.cache.hasPendingSweeps { finished += h.cache.continueSweeps() }
        #expect(finished.map(\.matched) == [150])
        #expect(h.sends.map(\.key) == (0..<150).map(Self.deep).sorted(by: <))
    }

    /// Keys whose canonical bytes share long runs past the filter's prefix, so the sort must fall
    /// back to comparing whole keys (shape 0); keys under two prefixes with no filter key (shape 1).
    private static func shaped(_ shape: Int, _ n: Int) -> QueryKey {
        if shape == 0 { return key("m", .string("a-long-shared-head-\(n * 37 % 101)"), .number(JSONNumber(n))) }
        return key(n % 2 == 0 ? "m" : "u", .number(JSONNumber(n * 7919 % 1_000)))
    }

    @Test(arguments: [0, 1])
    func refetchesGoOutInKeyOrderWhateverTheKeysShare(shape: Int) {
        let h = filled(120) { Self.shaped(shape, $0) }
        let outcome = h.cache.sweep(invalidateAll, shape == 0 ? filter(["key": ["m"]]) : QueryFilter())
        guard case .pending = outcome else {
            Issue.record("expected a sweep, got \(outcome)")
            return
        }
        while h.cache.hasPendingSweeps { _ = h.cache.continueSweeps() }
        #expect(h.sends.map(\.key) == (0..<120).map { Self.shaped(shape, $0) }.sorted(by: <))
    }
}
