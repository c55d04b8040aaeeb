// The persistence side of the cache: the `dataChanged` / `queryRemoved` effects a write-behind
// persister consumes (the server hands them to a `QueryCacheObserver`), and `restore`, which
// hydrates a query from persisted data at start (TanStack's `hydrate`, B139-B140).
//
// Rules of a restore:
// - It never overwrites newer data: an existing query whose data is at least as recent (by
//   dataUpdatedAt) is left alone. Older or missing data is replaced; the fetchStatus is kept
//   (a new query is idle).
// - dataUpdateCount comes back as persisted (so isFetched is true); status is success; error is cleared.
// - The query is marked invalidated: it is stale for every staleTime but "static", so the first
//   subscriber (or fetch) revalidates it, while `query.get` / `query.ensure` still answer at once.
// - It gets the default gcTime (5 min), counted from the restore, like a query that just became
//   unused; a subscriber asking for more extends it as usual. Persistence mirrors the cache, so a
//   restored query nobody uses is collected after that and then deleted from the store too: the
//   file never keeps what the live cache would have dropped (maxAge bounds the age of restored
//   data, gcTime how long unused data stays; TanStack issue #6679).
// - A restore reports no data change: the data came from the store.

public import QuerydJSON

/// Consumes the changes persistence must mirror: the server hands it the `dataChanged` and
/// `queryRemoved` effects, in order, on the loop thread.
public protocol QueryCacheObserver: AnyObject {
    /// The query has new successful data (a fetch succeeded, or `query.set` wrote it).
    func queryDataChanged(_ query: Query)
    /// The query with this key left the cache (garbage collection or `queries.remove`).
    func queryRemoved(_ key: QueryKey)
    /// The paused mutations (`MutationCache.dehydrateMutations()`) changed.
    func pausedMutationsChanged()
}

extension QueryCacheObserver {
    /// Ignores mutations (an observer of query data only).
    public func pausedMutationsChanged() {}
}

extension QueryCache {
    /// Reports that the query has new successful data, when data changes are reported.
    func reportDataChanged(_ query: Query) {
        if reportsDataChanges { effects.append(.dataChanged(query)) }
    }

    /// Hydrates the query for `key` with persisted data (see the rules above). Returns whether the
    /// data was applied (false: the cache already holds data at least as recent, or the key is an
    /// infinite query in use).
    @discardableResult
    public func restore(key: QueryKey, data: JSONValue, dataUpdatedAt: Int64, dataUpdateCount: Int) -> Bool {
        if let existing = queries[key] {
            if existing.hasData, existing.dataUpdatedAt >= dataUpdatedAt { return false }
            if existing.kind == .infinite { return false }
        }
        let query = obtainQuery(key, options: resolve(QueryOptions(), for: key, defaultRetry: 0))
        let stored = query.state.data
        let shared = stored == data ? stored! : data
        dispatch(.restored(data: shared, updatedAt: dataUpdatedAt, updateCount: dataUpdateCount), to: query)
        if let run = query.run {
            run.revertState = query.state
            run.revertState.fetchStatus = .idle
        }
        collectWhenUnused(query, restart: false)
        // Restored data is kept like any unused query's: encoded only, not also parsed.
        query.dropParsedDataIfUnused()
        return true
    }
}

extension QueryCache {
    /// What persistence writes for `key`, as bytes: a copy of the data's canonical encoding with
    /// its update time and count, or nil when the key is not cached or has no data. Never parses.
    public func persistedEncoding(of key: QueryKey) -> (data: [UInt8], dataUpdatedAt: Int64, dataUpdateCount: Int)? {
        guard let query = queries[key], let data = query.encodedData else { return nil }
        return (data, query.dataUpdatedAt, query.dataUpdateCount)
    }
}
