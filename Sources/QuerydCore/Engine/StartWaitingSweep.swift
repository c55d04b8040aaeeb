// Starting the fetches that wait for a fetcher when one registers while more than a slice of them
// wait: they are found, sorted by key and started in slices, like a filter call's matches
// (QueryCache+Sweeps.swift).

/// Slots of the waiting set read per unit of a slice's budget: reading a slot is a small part of
/// starting an attempt.
private let waitingSlotsPerEntry = 8

/// Units of a slice's budget one start takes: an attempt's bookkeeping, its timeout timer and the
/// `fetch` request the server writes for it cost about four entries of a filter pass (512 starts
/// took 3 ms of one loop turn).
private let entriesPerStart = 4

/// The fetches waiting when fetcher `fetcher` registered: the waiting set is walked a window of
/// hashes at a time (`HashedSet.visitWindow`, which visits each member present throughout exactly
/// once however the set changes), the ones the fetcher serves are sorted by key in steps, then
/// started in slices in key order. A fetch that settled, left the cache or got another fetcher's
/// attempt meanwhile is skipped (`startIfWaiting`); once the fetcher is gone (unregistered, its
/// connection closed) the rest stay waiting.
///
/// The sort moves `SortableMatch`es (a number from the key's canonical bytes, and the query
/// unretained) and reads a key only on a tie: comparing the keys themselves read two queries
/// scattered over the heap per move. The queries found are kept alive by `held` until the sweep
/// ends, then let go in slices (`ReleaseSweep`).
final class StartWaitingSweep: Sweep {
    private let fetcher: FetcherID
    /// Where the walk of the waiting set goes on (a hash); nil once it is done.
    private var position: UInt64? = 0
    /// The waiting fetches found, retained while `matches` refers to them.
    private var held: [Query] = []
    private var matches: [SortableMatch] = []
    private var sorter: IncrementalSort<SortableMatch>?
    /// The next of the sorted `matches` to start.
    private var next = 0
    private(set) var isDone = false

    init(fetcher: FetcherID) {
        self.fetcher = fetcher
    }

    func advance(in cache: QueryCache, budget: Int) -> Int {
        guard let member = cache.registry.member(fetcher) else {
            finish(in: cache)
            return 1
        }
        if let lower = position {
            if lower == 0 {
                held.reserveCapacity(cache.queriesWaitingForFetcher.count)
                matches.reserveCapacity(cache.queriesWaitingForFetcher.count)
            }
            let sharedBytes = SortableMatch.sharedBytes(ofKeysUnder: member.prefix)
            let (upper, examined) = cache.queriesWaitingForFetcher.visitWindow(
                from: lower, slots: budget * waitingSlotsPerEntry
            ) { entry in
                let query = entry.takeUnretainedValue()
                guard member.serves(query.key) else { return }
                held.append(query)
                matches.append(SortableMatch(entry, sharedBytes: sharedBytes))
            }
            position = upper
            if upper == nil {
                sorter = IncrementalSort(matches, by: SortableMatch.precedes)
                matches = []
            }
            return max(1, examined / waitingSlotsPerEntry)
        }
        if sorter != nil {
            return stepSort(&sorter, budget: budget) {
                matches = $0
                if matches.isEmpty { finish(in: cache) }
            }
        }
        var used = 0
        while used < budget, next < matches.count {
            cache.startIfWaiting(matches[next].query.takeUnretainedValue())
            next += 1
            used += entriesPerStart
        }
        if next == matches.count { finish(in: cache) }
        return max(used, 1)
    }

    /// Done (or the fetcher is gone): drops the matches, and lets the queries found go in slices.
    private func finish(in cache: QueryCache) {
        isDone = true
        position = nil
        sorter = nil
        matches = []
        if !held.isEmpty { cache.sweeps.append(ReleaseSweep(held)) }
        held = []
    }
}
