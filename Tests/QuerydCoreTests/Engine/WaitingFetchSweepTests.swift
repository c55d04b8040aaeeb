// A fetcher registering while more fetches wait for one than a slice takes (issue 20): the waiting
// fetches start over several `continueSweeps()`, at most a slice per call, each exactly once and
// in key order, as they would at once; one that settles or leaves the cache meanwhile is skipped.
// Likewise a fetcher's connection closing with more attempts in flight than a slice: they fail in
// slices, in the order they began.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct WaitingFetchSweepTests {
    /// Keys in an order that is neither the insertion order nor numeric: their key order decides.
    static let numbers = [7, 3, 12, 0, 9, 1, 11, 5, 2, 10, 8, 4, 6]

    private static func mKey(_ n: Int) -> QueryKey { key("m", .number(JSONNumber(n))) }

    /// A harness where the fetches of ["m", n] and of ["other"] wait for a fetcher.
    private func waiting(sliceSize: Int = 4) -> EngineHarness {
        let h = EngineHarness()
        h.cache.sweepSliceSize = sliceSize
        for n in Self.numbers { h.fetch(Self.mKey(n)) }
        h.fetch(key("other"))
        return h
    }

    /// Continues until no sweep is left; returns the number of fetch requests after each call.
    private func drain(_ h: EngineHarness) -> [Int] {
        var counts: [Int] = []
        while h.cache.hasPendingSweeps, counts.count < 1000 {
            _ = h.cache.continueSweeps()
            counts.append(h.sends.count)
        }
        return counts
    }

    @Test func aFetcherRegisteringStartsManyWaitingFetchesInSlicesInKeyOrder() {
        let h = waiting()
        #expect(h.stateText(Self.mKey(7)).contains("paused"))
        h.register("m")
        #expect(h.sends.isEmpty, "started at once")
        #expect(h.cache.hasPendingSweeps)
        let counts = drain(h)
        #expect(counts.count > 4)
        #expect(zip([0] + counts, counts).allSatisfy { $1 - $0 <= 4 })
        let sorted = Self.numbers.sorted { Self.mKey($0) < Self.mKey($1) }
        #expect(h.sends.map(\.key) == sorted.map(Self.mKey))
        #expect(h.sends.allSatisfy { $0.connection == EngineHarness.fetcherConnection && $0.attemptNumber == 1 })
        #expect(h.stateText(key("other")).contains("paused"))

        // The same registration at once sends the same requests in the same order.
        let once = waiting(sliceSize: 512)
        once.register("m")
        #expect(!once.cache.hasPendingSweeps)
        #expect(once.sends.map(\.key) == h.sends.map(\.key))
    }

    @Test func aSliceStartsAQuarterOfItsSizeInFetches() {
        // Starting an attempt, with the request the server writes for it, costs about four entries
        // of a filter pass: 512 starts held one loop turn for 3 ms.
        let h = waiting(sliceSize: 8)
        h.register("m")
        let counts = drain(h)
        let starts = zip([0] + counts, counts).map { $1 - $0 }
        #expect(starts.max() == 2)
        #expect(counts.last == 13)
    }

    @Test func keysThatShareTheirFirstBytesPastThePrefixStartInKeyOrder() {
        // The sort compares 8 bytes of each key past the fetcher's prefix, then the keys on a tie:
        // these keys tie on those bytes, differ after them, and include one equal to the prefix.
        let h = EngineHarness()
        h.cache.sweepSliceSize = 4
        let keys = [
            key("p", "shared-head-2"), key("p", "shared-head-10"), key("p"), key("p", 3),
            key("p", "shared-head-1"), key("p", [1]), key("p", "shared"),
            key("p", "shared-head-1", 2), key("p", "shared-head-1", 1),
        ]
        for key in keys { h.fetch(key) }
        h.register("p")
        _ = drain(h)
        #expect(h.sends.map(\.key) == keys.sorted(by: <))
    }

    @Test func aFetchSettledOrRemovedBetweenSlicesIsNotStarted() throws {
        let h = waiting()
        h.register("m")
        while h.sends.isEmpty, h.cache.hasPendingSweeps { _ = h.cache.continueSweeps() }
        let started = Set(h.sends.map(\.key))
        #expect(started.count <= 4)
        let later = Self.numbers.map(Self.mKey).filter { !started.contains($0) }
        let cancelled = try #require(later.max(by: <))
        let removed = try #require(later.min(by: <))
        h.cache.cancel(key: cancelled, revert: true)
        #expect(h.cache.removeQueries(filter(["key": .array(removed.elements), "exact": true])) == 1)
        _ = drain(h)
        let skipped: Set<QueryKey> = [cancelled, removed]
        #expect(h.sends.count == 13 - skipped.count)
        #expect(Set(h.sends.map(\.key)).isDisjoint(with: skipped))
        #expect(h.sends.map(\.key) == h.sends.map(\.key).sorted(by: <))
    }

    @Test func aFetcherThatUnregistersBetweenSlicesLeavesTheRestWaiting() throws {
        let h = waiting()
        let id = h.register("m")
        while h.sends.isEmpty, h.cache.hasPendingSweeps { _ = h.cache.continueSweeps() }
        let sent = h.sends.count
        #expect(sent > 0 && sent <= 4)
        try h.cache.unregisterFetcher(id, connection: EngineHarness.fetcherConnection)
        _ = drain(h)
        #expect(h.sends.count == sent)
        let paused = Self.numbers.map(Self.mKey).filter { h.stateText($0).contains("paused") }
        #expect(paused.count == 13 - sent)

        // A later fetcher starts the rest, each once.
        h.register("m", connection: ConnectionID(101))
        _ = drain(h)
        #expect(h.sends.count == 13)
        #expect(Set(h.sends.map(\.key)).count == 13)
    }

    private func failures(_ h: EngineHarness) -> Int {
        Self.numbers.filter { h.cache.query(Self.mKey($0))?.state.failureCount == 1 }.count
    }

    @Test func aFetcherConnectionClosingWithManyAttemptsFailsThemInSlicesInTheOrderTheyBegan() {
        let h = EngineHarness()
        h.cache.sweepSliceSize = 4
        h.register("m")
        h.register("m", connection: ConnectionID(101))
        // Both fetchers are equally busy in turn: the first takes every other attempt.
        for n in Self.numbers { h.fetch(Self.mKey(n), ["retry": 1, "retryDelay": 10]) }
        let lost = h.sends.filter { $0.connection == EngineHarness.fetcherConnection }.map(\.key)
        #expect(lost.count == 7)
        h.cache.connectionClosed(EngineHarness.fetcherConnection)
        #expect(failures(h) == 0, "failed at once")
        var counts: [Int] = []
        while h.cache.hasPendingSweeps, counts.count < 100 {
            _ = h.cache.continueSweeps()
            counts.append(failures(h))
        }
        #expect(counts.count >= 2)
        #expect(zip([0] + counts, counts).allSatisfy { $1 - $0 <= 4 })
        #expect(counts.last == 7)
        // Each lost attempt is retried once, at the fetcher left, in the order the attempts began.
        let before = h.sends.count
        h.advance(10)
        let retried = h.sends.dropFirst(before)
        #expect(retried.map(\.key) == lost)
        #expect(retried.allSatisfy { $0.connection == ConnectionID(101) && $0.attemptNumber == 2 })
    }
}
