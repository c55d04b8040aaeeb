// Starting the fetches that wait for a fetcher when one registers while more than a slice of them
// wait: they are found, sorted by key and started in slices, like a filter call's matches
// (QueryCache+Sweeps.swift).

/// Slots of the waiting set read per unit of a slice's budget: reading a slot is a small part of
/// starting an attempt.
private let waitingSlotsPerEntry = 8

/// The fetches waiting when fetcher `fetcher` registered: the waiting set is walked a window of
/// hashes at a time (`HashedSet.visitWindow`, which visits each member present throughout exactly
/// once however the set changes), the ones the fetcher serves are sorted by key in steps, then
/// started in slices in key order. A fetch that settled, left the cache or got another fetcher's
/// attempt meanwhile is skipped (`startIfWaiting`); once the fetcher is gone (unregistered, its
/// connection closed) the rest stay waiting.
final class StartWaitingSweep: Sweep {
    private let fetcher: FetcherID
    /// Where the walk of the waiting set goes on (a hash); nil once it is done.
    private var position: UInt64? = 0
    /// The waiting fetches found; each is let go once its turn came.
    private var found: [Query?] = []
    /// Sorts indices into `found` by descending key, so the next to start is the last.
    private var sorter: IncrementalSort<Int>?
    private var order: [Int] = []
    private(set) var isDone = false

    init(fetcher: FetcherID) {
        self.fetcher = fetcher
    }

    func advance(in cache: QueryCache, budget: Int) -> Int {
        guard let member = cache.registry.member(fetcher) else { return letGo(budget: budget) }
        if let lower = position {
            let (upper, examined) = cache.queriesWaitingForFetcher.visitWindow(
                from: lower, slots: budget * waitingSlotsPerEntry
            ) { entry in
                let query = entry.takeUnretainedValue()
                if member.serves(query.key) { found.append(query) }
            }
            position = upper
            if upper == nil {
                // The comparator holds its own copy of `found`, released with the sorter.
                sorter = IncrementalSort(Array(found.indices)) { [found] in found[$1]!.key < found[$0]!.key }
            }
            return max(1, examined / waitingSlotsPerEntry)
        }
        if sorter != nil {
            return stepSort(&sorter, budget: budget) {
                order = $0
                if order.isEmpty { finish() }
            }
        }
        var used = 0
        while used < budget, let next = order.popLast() {
            let query = found[next]!
            found[next] = nil
            cache.startIfWaiting(query)
            used += 1
        }
        if order.isEmpty { finish() }
        return max(used, 1)
    }

    /// The fetcher is gone: drops the fetches found, a slice at a time.
    private func letGo(budget: Int) -> Int {
        position = nil
        sorter = nil
        order = []
        let count = min(budget, found.count)
        found.removeLast(count)
        isDone = found.isEmpty
        return max(count, 1)
    }

    private func finish() {
        isDone = true
        found = []
    }
}
