// A successful mutation's `invalidate` filters over many queries: applied in slices, like a filter
// call's (QueryCache+Sweeps.swift), and the mutation settles (its state `success`, its callers
// answered) after the last slice, as it does after invalidating at once. Filters whose search ends
// within one slice and finds at most a slice of queries are applied at once, as before.

import QuerydJSON

/// Units of a search's work per unit of a slice's budget (as a filter sweep's search).
private let searchUnitsPerEntry = 8

/// The invalidations of one successful mutation: for each filter in order, its matches are found
/// (`FilterMatches`), sorted by key and invalidated (a key once, however many filters match it;
/// one that another pending mutation wrote optimistically is postponed, B137); then the postponed
/// invalidations its settlement made due; then the settlement. `invalidateAtOnce` does the filters
/// that fit in a slice; from the first that does not, the rest goes on as a sweep, in steps.
///
/// In a sweep a match is retained in the step that finds it (`held`, let go in slices once its
/// filter is done), so one that leaves the cache between slices stays valid to read; it is then
/// no longer cached and is skipped. Queries created during a search may or may not be found.
final class MutationInvalidationSweep: Sweep {
    private unowned let mutations: MutationCache
    private let mutation: Mutation
    private let data: JSONValue
    private var filters: ArraySlice<QueryFilter>
    /// The postponed invalidations the settlement made due, run after the filters' (in a sweep).
    private var due: [QueryKey] = []
    /// In a sweep: the due keys, to note which of them the filters invalidate (only those: a set of
    /// every key invalidated would be freed in one step at the end).
    private var dueKeys: Set<QueryKey>?
    /// Whether a key matched by one filter may be matched by another (then `seen` is kept).
    private let dedupes: Bool
    private var search: FilterMatches?
    private var sorter: IncrementalSort<SortableMatch>?
    private var matches: [SortableMatch] = []
    private var index = 0
    private var dueIndex = 0
    private var held: [Query] = []
    /// The keys matched so far (postponed ones included) when `dedupes`, and the keys invalidated
    /// (in a sweep, only the due ones).
    private var seen = ShardedSet<QueryKey>()
    private var invalidated = ShardedSet<QueryKey>()
    private(set) var isDone = false

    init(_ mutation: Mutation, data: JSONValue, in mutations: MutationCache) {
        self.mutations = mutations
        self.mutation = mutation
        self.data = data
        filters = mutation.options.invalidate[...]
        dedupes = filters.count > 1
    }

    /// Applies the filters in order while each one's search ends within a slice and finds at most
    /// a slice of queries. Returns true when every filter is done; false when one did not fit: its
    /// search goes on as a sweep (then `continueAsSweep`).
    func invalidateAtOnce(in cache: QueryCache) -> Bool {
        while let filter = filters.popFirst() {
            var search = FilterMatches(filter)
            _ = search.step(in: cache, budget: cache.sweepSliceSize * searchUnitsPerEntry)
            guard search.isDone, search.found.count <= cache.sweepSliceSize else {
                held.reserveCapacity(cache.queries.count)
                held.append(contentsOf: search.found.lazy.map { $0.query.takeUnretainedValue() })
                search.reserveForAll(in: cache)
                self.search = search
                return false
            }
            let queries = search.found.map { $0.query.takeUnretainedValue() }
            for query in queries.sorted(by: { $0.key < $1.key }) { invalidate(query, in: cache) }
        }
        return true
    }

    /// Invalidates the keys that became due, except those this mutation invalidated itself.
    func invalidateDue(_ keys: [QueryKey], in cache: QueryCache) {
        for key in keys where invalidated.insert(key) {
            if let query = cache.query(key) { cache.invalidate(query, refetchType: .active) }
        }
    }

    /// Goes on in slices (`QueryCache.continueSweeps`) after `invalidateAtOnce` returned false;
    /// `due` are the invalidations the settlement made due, run after the filters'.
    func continueAsSweep(due: [QueryKey], in cache: QueryCache) {
        self.due = due
        dueKeys = Set(due)
        cache.sweeps.append(self)
    }

    func advance(in cache: QueryCache, budget: Int) -> Int {
        if search != nil { return searchStep(in: cache, budget: budget) }
        if sorter != nil { return stepSort(&sorter, budget: budget) { matches = $0 } }
        if index < matches.count {
            let end = min(index + budget, matches.count)
            for match in matches[index..<end] { invalidate(match.query.takeUnretainedValue(), in: cache) }
            defer { index = end }
            return max(end - index, 1)
        }
        releaseHeld(in: cache)
        if let filter = filters.popFirst() {
            search = FilterMatches(filter)
            search!.reserveForAll(in: cache)
            held.reserveCapacity(cache.queries.count)
            matches = []
            index = 0
            return 1
        }
        if dueIndex < due.count {
            let end = min(dueIndex + budget, due.count)
            invalidateDue(Array(due[dueIndex..<end]), in: cache)
            defer { dueIndex = end }
            return max(end - dueIndex, 1)
        }
        isDone = true
        mutations.settleSuccess(mutation, data: data)
        return 1
    }

    /// Invalidates `query` unless it left the cache, a filter matched it before, or another pending
    /// mutation wrote it optimistically (then its invalidation waits for that one).
    private func invalidate(_ query: Query, in cache: QueryCache) {
        guard !query.isForgotten, !dedupes || seen.insert(query.key) else { return }
        if mutations.postponeInvalidation(of: query.key, for: mutation) { return }
        cache.invalidate(query, refetchType: .active)
        if dueKeys?.contains(query.key) ?? true { invalidated.insert(query.key) }
    }

    private func searchStep(in cache: QueryCache, budget: Int) -> Int {
        let before = search!.found.count
        let used = search!.step(in: cache, budget: budget * searchUnitsPerEntry)
        for match in search!.found[before...] { held.append(match.query.takeUnretainedValue()) }
        if search!.isDone {
            sorter = IncrementalSort(search!.found, by: SortableMatch.precedes)
            search = nil
        }
        return max(1, used / searchUnitsPerEntry)
    }

    /// Lets the matches of the filters done so far go, in slices after this sweep.
    private func releaseHeld(in cache: QueryCache) {
        if !held.isEmpty { cache.sweeps.append(ReleaseSweep(held)) }
        held = []
    }
}
