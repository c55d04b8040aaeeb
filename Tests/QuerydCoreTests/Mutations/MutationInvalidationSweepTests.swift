// A successful mutation whose `invalidate` filters match more queries than a slice (issue 20): the
// invalidations go in slices of `continueSweeps()`, at most a slice per call, each key once and in
// key order, and the mutation settles (state `success`, caller answered) only after the last; a key
// another pending mutation wrote optimistically still waits for that one (B137).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct MutationInvalidationSweepTests {
    /// Keys in an order that is neither the insertion order nor numeric: their key order decides.
    static let numbers = [7, 3, 12, 0, 9, 1, 11, 5, 2, 10, 8, 4, 6]

    private static func tKey(_ n: Int) -> QueryKey { key("todos", .number(JSONNumber(n))) }

    /// 13 cached queries ["todos", n], every one subscribed (active: an invalidation refetches it).
    private func harness() -> MutationHarness {
        let h = MutationHarness()
        h.cache.sweepSliceSize = 4
        h.engine.register("todos")
        h.registerMutator("todos")
        for n in Self.numbers {
            h.engine.subscribe(Self.tKey(n))
            h.engine.answer(Self.tKey(n), .number(JSONNumber(n)))
        }
        return h
    }

    private func invalidatedCount(_ h: MutationHarness) -> Int {
        Self.numbers.filter { h.cache.state(of: Self.tKey($0))?.isInvalidated == true }.count
    }

    @Test func invalidationsOfManyQueriesGoInSlicesAndTheMutationSettlesAfterTheLast() {
        let h = harness()
        let fetchesBefore = h.engine.sends.count
        // Two filters matching the same keys: each key is invalidated (and refetched) once.
        let (id, outcome) = h.run(
            key("todos", "add"), variables: "x", ["invalidate": [["key": ["todos"]], ["key": ["todos"]]]])
        h.answer("x", data: "done")
        #expect(invalidatedCount(h) == 0, "invalidated at once")
        #expect(outcome.results.isEmpty)
        #expect(h.stateText(id).hasSuffix(":pending"))
        var counts: [Int] = []
        while h.cache.hasPendingSweeps, counts.count < 1000 {
            _ = h.cache.continueSweeps()
            counts.append(invalidatedCount(h))
            if counts.last! < 13 { #expect(outcome.results.isEmpty, "answered before the last slice") }
        }
        #expect(zip([0] + counts, counts).allSatisfy { $1 - $0 <= 4 })
        #expect(counts.last == 13)
        #expect(outcome.data == "done")
        #expect(h.stateText(id).hasSuffix(":success data=\"done\""))
        let refetched = h.engine.sends.dropFirst(fetchesBefore).map(\.key)
        #expect(refetched == Self.numbers.sorted { Self.tKey($0) < Self.tKey($1) }.map(Self.tKey))
    }

    @Test func aKeyAnotherPendingMutationWroteWaitsForItInSlicesToo() {
        let h = harness()
        h.run(key("todos", "edit"), variables: "a", ["optimistic": [["key": ["todos", 5], "data": "draft"]]])
        let (_, outcome) = h.run(key("todos", "add"), variables: "b", ["invalidate": [["key": ["todos"]]]])
        h.answer("b", data: nil)
        while h.cache.hasPendingSweeps { _ = h.cache.continueSweeps() }
        #expect(outcome.data == .null)
        #expect(invalidatedCount(h) == 12)
        #expect(h.cache.state(of: Self.tKey(5))?.isInvalidated == false)
        h.answer("a", data: nil)
        #expect(invalidatedCount(h) == 13)
    }

    @Test func fewMatchesAreInvalidatedAtOnce() {
        let h = harness()
        let (_, outcome) = h.run(key("todos", "add"), variables: "x", ["invalidate": [["key": ["todos", 5]]]])
        h.answer("x", data: nil)
        #expect(!h.cache.hasPendingSweeps)
        #expect(outcome.data == .null)
        #expect(invalidatedCount(h) == 1)
    }
}
