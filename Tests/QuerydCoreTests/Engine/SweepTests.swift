// Sweeps in slices (issue 20): a filter call, a gc and a closed connection's subscriptions over
// more entries than one slice take do at most a slice per `continueSweeps()`, and end with what
// the same work done at once gives: the same count, the fetch requests in the same (key) order,
// the answer only after the last slice.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct SweepTests {
    /// Keys in an order that is neither the insertion order nor numeric: their key order decides.
    static let numbers = [7, 3, 12, 0, 9, 1, 11, 5, 2, 10, 8, 4, 6]

    /// A harness with a fetcher for ["m"] and the queries ["m", n] cached with data.
    private func filled(sliceSize: Int = 4) -> EngineHarness {
        let h = EngineHarness()
        h.cache.sweepSliceSize = sliceSize
        h.register("m")
        for n in Self.numbers { h.set(key("m", .number(JSONNumber(n))), .number(JSONNumber(n))) }
        return h
    }

    private var invalidateAll: FilterOperation { .invalidate(refetchType: .all, cancelRefetch: true) }

    private func invalidatedCount(_ h: EngineHarness) -> Int {
        Self.numbers.filter { h.cache.query(key("m", .number(JSONNumber($0))))?.state.isInvalidated == true }.count
    }

    /// Continues until no sweep is left; returns what each call finished.
    private func drain(_ h: EngineHarness) -> [[(SweepID, matched: Int)]] {
        var calls: [[(SweepID, matched: Int)]] = []
        while h.cache.hasPendingSweeps {
            calls.append(h.cache.continueSweeps())
            if calls.count > 1000 { break }
        }
        return calls
    }

    @Test func anInvalidateOverManyQueriesGoesInSlicesAndAnswersAfterTheLast() {
        let h = filled()
        let outcome = h.cache.sweep(invalidateAll, filter(["key": ["m"]]))
        guard case .pending(let id) = outcome else {
            Issue.record("expected a sweep, got \(outcome)")
            return
        }
        #expect(invalidatedCount(h) == 0)
        #expect(h.sends.isEmpty)
        var previous = 0
        var finished: [(SweepID, matched: Int)] = []
        while h.cache.hasPendingSweeps {
            #expect(finished.isEmpty, "answered before the last slice")
            finished = h.cache.continueSweeps()
            let now = invalidatedCount(h)
            #expect(now - previous <= 4)
            previous = now
        }
        #expect(finished.map(\.0) == [id])
        #expect(finished.map(\.matched) == [13])
        #expect(invalidatedCount(h) == 13)

        // The same work at once sends the same requests in the same order.
        let once = filled(sliceSize: 512)
        #expect(once.cache.sweep(invalidateAll, filter(["key": ["m"]])) == .done(matched: 13))
        #expect(h.sends.map(\.key) == once.sends.map(\.key))
        #expect(h.sends.map(\.key) == h.sends.map(\.key).sorted(by: <))
        #expect(h.sends.count == 13)
    }

    @Test func aSmallCallWithNoSweepPendingIsDoneAtOnce() {
        let h = filled()
        #expect(h.cache.sweep(.remove, filter(["key": ["m", 3]])) == .done(matched: 1))
        #expect(!h.cache.hasPendingSweeps)
        #expect(h.cache.query(key("m", 3)) == nil)
    }

    @Test func aSecondFilterCallWaitsBehindTheSweepAndMatchesWhenItsTurnComes() {
        let h = filled()
        guard case .pending(let first) = h.cache.sweep(invalidateAll, filter(["key": ["m"]])),
            case .pending(let second) = h.cache.sweep(.remove, filter(["key": ["m"], "stale": true]))
        else {
            Issue.record("both calls should be sweeps")
            return
        }
        // The removal has not run: it would have matched nothing yet (every query is fresh).
        #expect(h.cache.statistics.queries == 13)
        let finished = drain(h).flatMap { $0 }
        #expect(finished.map(\.0) == [first, second])
        // It matched when its turn came: after the invalidation, every query was stale.
        #expect(finished.map(\.matched) == [13, 13])
        #expect(h.cache.statistics.queries == 0)
    }

    @Test func queriesCreatedOrRemovedBetweenSlicesAreNotTouched() {
        let h = filled()
        _ = h.cache.sweep(invalidateAll, filter(["key": ["m"]]))
        _ = h.cache.continueSweeps()
        _ = h.cache.continueSweeps()
        // ["m", 9] comes late in key order ("9" after the other digits): still untouched.
        #expect(h.cache.query(key("m", 9))?.state.isInvalidated == false)
        weak let removed = h.cache.query(key("m", 9))
        #expect(h.cache.removeQueries(filter(["key": ["m", 9]])) == 1)
        // The sweep still refers to it: it is kept until the sweep is done.
        #expect(removed != nil)
        h.set(key("m", 99), 99)
        let finished = drain(h).flatMap { $0 }
        #expect(finished.map(\.matched) == [13])
        #expect(h.cache.query(key("m", 9)) == nil)
        #expect(removed == nil)
        #expect(h.cache.query(key("m", 99))?.state.isInvalidated == false)
        #expect(h.sends(for: key("m", 9)).isEmpty)
        #expect(h.sends(for: key("m", 99)).isEmpty)
        #expect(h.sends.count == 12)
    }

    @Test func theFetcherLeavingMidSweepLeavesTheRestWaitingAndTheCountWhole() {
        let h = filled()
        _ = h.cache.sweep(invalidateAll, filter(["key": ["m"]]))
        // Sort, then pass 1 (invalidate) of all 13 in slices of 4, then the refetches begin.
        while h.sends.isEmpty { _ = h.cache.continueSweeps() }
        let sentBefore = h.sends.count
        h.cache.connectionClosed(EngineHarness.fetcherConnection)
        let finished = drain(h).flatMap { $0 }
        #expect(finished.map(\.matched) == [13])
        #expect(h.sends.count == sentBefore)
        // The rest wait for a fetcher: registering one starts them (in slices), in key order.
        h.register("m")
        _ = drain(h)
        let waited = Array(h.sends.dropFirst(sentBefore)).map(\.key)
        #expect(waited.count == 13 - sentBefore)
        #expect(waited == waited.sorted(by: <))
    }

    @Test func manyQueriesDueTogetherAreCollectedInSlices() {
        let h = filled()
        h.advance(300_000)
        #expect(h.cache.statistics.queries == 9)
        #expect(h.cache.hasPendingSweeps)
        // A query subscribed to between slices is not collected.
        let survivor = key("m", 12)
        let (subscription, _) = h.subscribe(survivor)
        var counts: [Int] = []
        while h.cache.hasPendingSweeps {
            #expect(h.cache.continueSweeps().isEmpty)
            counts.append(h.cache.statistics.queries)
        }
        #expect(counts.last == 1)
        #expect(zip([9] + counts, counts).allSatisfy { $0 - $1 <= 4 })
        #expect(h.cache.query(survivor) != nil)
        // Subscribing refetched its stale data: it is collected once that fetch settles and it is unused.
        h.answer(survivor, 12)
        h.unsubscribe(subscription)
        h.advance(300_000)
        #expect(h.cache.query(survivor) == nil)
    }

    @Test func aClosedConnectionsManySubscriptionsEndInSlices() {
        let h = filled()
        for n in Self.numbers { h.subscribe(key("m", .number(JSONNumber(n))), ["staleTime": 60_000]) }
        #expect(h.cache.statistics.subscriptions == 13)
        h.cache.connectionClosed(EngineHarness.client)
        #expect(h.cache.statistics.subscriptions == 13)
        var left: [Int] = []
        while h.cache.hasPendingSweeps {
            _ = h.cache.continueSweeps()
            left.append(h.cache.statistics.subscriptions)
        }
        #expect(left.last == 0)
        #expect(zip([13] + left, left).allSatisfy { $0 - $1 <= 4 })
        // Each query's collection was armed as its subscription ended: all go gcTime later.
        h.advance(300_000)
        _ = drain(h)
        #expect(h.cache.statistics.queries == 0)
    }

    /// Every filter operation in slices ends as it does at once: the same fetch requests in the
    /// same order, the same cancels, the same queries left, the same count.
    @Test(arguments: [
        FilterOperation.refetch(cancelRefetch: true), .reset(cancelRefetch: true), .cancel, .remove,
        .invalidate(refetchType: .active, cancelRefetch: false),
    ])
    func eachOperationInSlicesEndsAsAtOnce(operation: FilterOperation) {
        func run(sliceSize: Int) -> (sends: [QueryKey], cancels: Int, queries: Int, matched: [Int]) {
            let h = filled(sliceSize: sliceSize)
            // Some queries fetching (a cancellable fetcher), some subscribed.
            h.register("m", cancellable: true)
            for n in [3, 9] { h.fetch(key("m", .number(JSONNumber(n)))) }
            for n in [1, 12] { h.subscribe(key("m", .number(JSONNumber(n))), ["staleTime": 60_000]) }
            let before = h.sends.count
            var matched: [Int] = []
            switch h.cache.sweep(operation, filter(["key": ["m"]])) {
            case .done(let count): matched = [count]
            case .pending: matched = drain(h).flatMap { $0 }.map(\.matched)
            }
            return (Array(h.sends.dropFirst(before)).map(\.key), h.cancels.count, h.cache.statistics.queries, matched)
        }
        let sliced = run(sliceSize: 4)
        let once = run(sliceSize: 512)
        #expect(sliced.sends == once.sends)
        #expect(sliced.cancels == once.cancels)
        #expect(sliced.queries == once.queries)
        #expect(once.sends.count + once.cancels > 0, "the operation should send or cancel something")
        #expect(sliced.matched == [13])
        #expect(once.matched == [13])
    }
}
