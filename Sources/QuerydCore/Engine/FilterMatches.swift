// Finding the queries a filter matches in steps of bounded work (a `QueryIndexCursor` over the
// index), for a filter sweep: the cache changes between steps.
//
// Which queries are found: those in the cache when the search began that are still there when the
// cursor reaches them (and whose state, when the filter reads it, matches then). Queries created
// during the search are left out: while a search runs the cache notes each query it creates
// (`QueryCache.sweepNewcomers`) and the search skips those.

/// The queries one filter matches, found a bounded amount of work at a time.
struct FilterMatches {
    private let filter: QueryFilter
    private var cursor: QueryIndexCursor<Query>?
    /// The matches found so far, unretained, in no order (see `FilterSweep` for why they stay valid).
    private(set) var found: [Unmanaged<Query>] = []

    init(_ filter: QueryFilter) {
        self.filter = filter
        cursor = QueryIndexCursor(prefix: filter.key ?? [])
    }

    /// Whether every match has been found.
    var isDone: Bool { cursor == nil }

    /// Makes room for as many matches as the cache has queries, so the list never grows by
    /// copying (a large reservation is mapped lazily: its pages are touched as matches are added).
    mutating func reserveForAll(in cache: QueryCache) {
        found.reserveCapacity(cache.queries.count)
    }

    /// Searches on for about `budget` units of work; returns the work done (at least 1).
    mutating func step(in cache: QueryCache, budget: Int) -> Int {
        guard var cursor else { return 1 }
        self.cursor = nil
        if let key = filter.key, filter.exact {
            if let query = cache.queries[QueryKey(elements: key)] { keep(.passUnretained(query), in: cache) }
            return 1
        }
        let used = cursor.step(in: cache.queries, budget: budget) { keep($0, in: cache) }
        if !cursor.isDone { self.cursor = cursor }
        return used
    }

    private mutating func keep(_ query: Unmanaged<Query>, in cache: QueryCache) {
        if let newcomers = cache.sweepNewcomers, !newcomers.isEmpty, newcomers.contains(query.toOpaque()) { return }
        if filter.readsState, !QueryCache.stateMatches(query.takeUnretainedValue(), filter, now: cache.now) { return }
        found.append(query)
    }
}
