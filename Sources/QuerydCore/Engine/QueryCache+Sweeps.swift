// Work over many entries in slices: a filter call matching many queries, the gc of many queries
// due together, and the subscriptions of a closed connection. Each does at most `sweepSliceSize`
// entries per `continueSweeps()`, which the server calls once per loop turn while
// `hasPendingSweeps`; a loop turn therefore never holds a whole sweep over millions of queries.
//
// Sweeps run one after another in the order they began (a filter call made while one is pending
// waits behind it and matches when its turn comes), so filter calls take effect in the order they
// arrived. Between slices every other input runs as usual and sees the sweep half done: some
// matches already invalidated (or removed, reset, …) and some not yet. A filter call's search for
// its matches goes in slices too (`FilterMatches`): it matches the queries in the cache when it
// began that are still there when it reaches them, not those created meanwhile. A match that left
// the cache between slices is skipped; the count a filter call answers is how many it matched.

/// Names one pending filter call, for its answer when its sweep is done.
public struct SweepID: Hashable, Sendable {
    public let rawValue: Int
}

/// What a filter call gave: done at once, or a sweep that answers later (`continueSweeps`).
public enum FilterCallOutcome: Equatable, Sendable {
    case done(matched: Int)
    case pending(SweepID)
}

/// One piece of work continued across loop turns.
protocol Sweep: AnyObject {
    /// Whether the work is finished.
    var isDone: Bool { get }
    /// Does at most about `budget` entries' work (at least some); returns the budget it used.
    func advance(in cache: QueryCache, budget: Int) -> Int
}

extension QueryCache {
    /// Whether work is left for `continueSweeps()`.
    public var hasPendingSweeps: Bool { !sweeps.isEmpty }

    /// Runs `operation` on the queries `filter` matches: at once when no sweep is pending and one
    /// slice finds them all, at most `sweepSliceSize`; otherwise as a sweep whose count
    /// `continueSweeps()` returns.
    public func sweep(_ operation: FilterOperation, _ filter: QueryFilter) -> FilterCallOutcome {
        lastSweepID += 1
        let sweep = FilterSweep(id: SweepID(rawValue: lastSweepID), operation: operation, filter: filter)
        if sweeps.isEmpty, let matched = sweep.matchAtOnce(in: self) {
            return .done(matched: perform(operation, on: matched))
        }
        sweeps.append(sweep)
        return .pending(sweep.id)
    }

    /// Does one slice of the pending sweeps (about `sweepSliceSize` entries), in the order they
    /// began; returns the filter calls that finished, with how many each matched.
    public func continueSweeps() -> [(SweepID, matched: Int)] {
        var finished: [(SweepID, matched: Int)] = []
        var budget = sweepSliceSize
        while budget > 0, let sweep = sweeps.first {
            budget -= sweep.advance(in: self, budget: budget)
            guard sweep.isDone else { continue }
            sweeps.removeFirst()
            if let call = sweep as? FilterSweep { finished.append((call.id, call.matchedCount)) }
        }
        return finished
    }

    /// Starts a gc sweep of the deadline whose first slice collected `collected` queries.
    func continueCollecting(_ deadline: Int64, collected: Int) {
        sweeps.append(CollectSweep(deadline: deadline, collected: collected))
    }

    /// Keeps the queries that leave the cache while a filter sweep holds unretained references
    /// to its matches (`sweepGraveyard` not nil); they are let go in slices after it.
    func holdWhileSwept(_ query: Query) {
        sweepGraveyard?.append(query)
    }

    /// Unsubscribes `owned` (the subscriptions of a closed connection) in slices, by id.
    func unsubscribeInSlices(_ owned: [SubscriptionID], of connection: ConnectionID) {
        sweeps.append(UnsubscribeSweep(owned, connection: connection))
    }
}

/// Sort moves per unit of a slice's budget: a move is a comparison and a copy, a small part of an
/// entry's work in a filter pass.
private let sortMovesPerEntry = 16

/// Takes one step of a sweep's sort within `budget`; once the sort is done, clears `sorter` and
/// hands its items to `sorted`. Returns the budget used.
func stepSort<Element>(
    _ sorter: inout IncrementalSort<Element>?, budget: Int, then sorted: ([Element]) -> Void
) -> Int {
    let moved = sorter!.step(budget: budget * sortMovesPerEntry)
    if sorter!.isDone {
        let items = sorter!.items
        sorter = nil
        sorted(items)
    }
    return max(1, moved / sortMovesPerEntry)
}

/// Units of a search's work per unit of a slice's budget: a unit is an index slot read or a trie
/// node entered, a small part of an entry's work in a filter pass.
private let searchUnitsPerEntry = 8

/// A filter call over many queries: find the matches in slices (`FilterMatches`), sort them by key
/// in steps, then each pass over them in slices.
///
/// The matches are unretained references: taking or dropping millions of references would touch
/// every query in one step. They stay valid because a match is either still in the cache's index,
/// which retains it, or was forgotten since and is then held by `QueryCache.sweepGraveyard`, which
/// the search sets up and `finish` hands to a `ReleaseSweep` only when this sweep no longer reads
/// its matches. Only the sweep at the head of the queue has matches, so one graveyard serves (and
/// one list of `QueryCache.sweepNewcomers`, kept while the search runs).
final class FilterSweep: Sweep {
    let id: SweepID
    private let operation: FilterOperation
    private var search: FilterMatches?
    /// Whether the search has set up the graveyard and the newcomers list.
    private var isTracking = false
    private var sorter: IncrementalSort<SortableMatch>?
    private var matched: [SortableMatch] = []
    private(set) var matchedCount = 0
    private var pass = 0
    private var index = 0
    private(set) var isDone = false

    /// A call that searches for its matches when its turn comes.
    init(id: SweepID, operation: FilterOperation, filter: QueryFilter) {
        self.id = id
        self.operation = operation
        self.search = FilterMatches(filter)
    }

    /// Takes the first slice of the search now: the matches, in key order, when that found them
    /// all and they fit in a slice; otherwise nil, the search goes on as a sweep.
    func matchAtOnce(in cache: QueryCache) -> [Query]? {
        guard var search else { return nil }
        _ = search.step(in: cache, budget: cache.sweepSliceSize * searchUnitsPerEntry)
        guard search.isDone, search.found.count <= cache.sweepSliceSize else {
            self.search = search
            track(in: cache)
            return nil
        }
        self.search = nil
        let matched = search.found.map { $0.query.takeUnretainedValue() }
        return matched.count > 1 ? matched.sorted { $0.key < $1.key } : matched
    }

    /// Starts keeping what leaves the cache and noting what joins it, and makes room for matches.
    private func track(in cache: QueryCache) {
        isTracking = true
        cache.sweepGraveyard = cache.sweepGraveyard ?? []
        cache.sweepNewcomers = []
        search?.reserveForAll(in: cache)
    }

    func advance(in cache: QueryCache, budget: Int) -> Int {
        if search != nil {
            if !isTracking { track(in: cache) }
            let used = search!.step(in: cache, budget: budget * searchUnitsPerEntry)
            if search!.isDone {
                let found = search!.found
                search = nil
                cache.sweepNewcomers = nil
                matchedCount = found.count
                sorter = IncrementalSort(found, by: SortableMatch.precedes)
            }
            return max(1, used / searchUnitsPerEntry)
        }
        if sorter != nil {
            return stepSort(&sorter, budget: budget) {
                matched = $0
                if matched.isEmpty { finish(in: cache) }
            }
        }
        var used = 0
        while used < budget, !isDone {
            cache.apply(operation, pass: pass, to: matched[index].query.takeUnretainedValue())
            used += 1
            index += 1
            if index == matched.count {
                index = 0
                pass += 1
                if pass == operation.passes { finish(in: cache) }
            }
        }
        return used
    }

    /// Drops the matches, then lets the graveyard go (in slices).
    private func finish(in cache: QueryCache) {
        isDone = true
        matched = []
        if let held = cache.sweepGraveyard, !held.isEmpty { cache.sweeps.append(ReleaseSweep(held)) }
        cache.sweepGraveyard = nil
    }
}

/// Objects a sweep kept alive, released a slice at a time (each release may free one).
final class ReleaseSweep<Object: AnyObject>: Sweep {
    private var held: [Object]

    init(_ held: [Object]) {
        self.held = held
    }

    var isDone: Bool { held.isEmpty }

    func advance(in cache: QueryCache, budget: Int) -> Int {
        let count = min(budget, held.count)
        held.removeLast(count)
        return max(count, 1)
    }
}

/// The queries due at one gc deadline beyond the first slice, taken from their bucket in slices.
/// The memory of a large collection goes back to the system every `collectionReleasingMemory`
/// queries (each return then covers only what was freed since the last, a bounded step) and once
/// more at the end.
final class CollectSweep: Sweep {
    private let deadline: Int64
    private var collected: Int
    private var unreleased: Int
    private(set) var isDone = false

    init(deadline: Int64, collected: Int) {
        self.deadline = deadline
        self.collected = collected
        self.unreleased = collected
    }

    func advance(in cache: QueryCache, budget: Int) -> Int {
        let (count, more) = cache.collectSlice(of: deadline, limit: budget)
        collected += count
        unreleased += count
        let threshold = QueryCache.collectionReleasingMemory
        if unreleased >= threshold || (!more && collected >= threshold && unreleased > 0) {
            SystemMemory.releaseFreePages()
            unreleased = 0
        }
        isDone = !more
        return max(count, 1)
    }
}

/// The subscriptions of a closed connection, sorted by id in steps, then ended in slices. The
/// ended ones are kept until the end and then let go in slices of their own, so freeing them is
/// not added to the slices that end them.
final class UnsubscribeSweep: Sweep {
    private let connection: ConnectionID
    private var sorter: IncrementalSort<SubscriptionID>?
    private var owned: [SubscriptionID] = []
    private var ended: [Subscription] = []
    private var index = 0
    private(set) var isDone = false

    init(_ owned: [SubscriptionID], connection: ConnectionID) {
        self.connection = connection
        sorter = IncrementalSort(owned) { $0.rawValue < $1.rawValue }
    }

    func advance(in cache: QueryCache, budget: Int) -> Int {
        if sorter != nil {
            return stepSort(&sorter, budget: budget) {
                owned = $0
                isDone = owned.isEmpty
            }
        }
        let end = min(index + budget, owned.count)
        for id in owned[index..<end] {
            guard let subscription = cache.subscriptions[id] else { continue }
            ended.append(subscription)
            try? cache.unsubscribe(id, connection: connection)
        }
        let used = end - index
        index = end
        if index == owned.count {
            isDone = true
            owned = []
            cache.sweeps.append(ReleaseSweep(ended))
            ended = []
        }
        return max(used, 1)
    }
}
