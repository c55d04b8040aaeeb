// What the mutation engine does to queries: optimistic writes (TanStack's recipe: cancel the
// key's fetch, snapshot the state, write), exact restores of a snapshot when a mutation fails,
// and invalidations of single queries once a mutation succeeded.

import QuerydJSON

extension QueryCache {
    /// Prepares `key` for an optimistic write: cancels its running fetch with revert (its waiters
    /// get the data it had before the fetch, or -32003; a late answer is ignored, so it cannot
    /// overwrite the write) and returns the query, created empty when absent, with the state the
    /// write will change.
    func prepareOptimisticWrite(_ key: QueryKey) -> (query: Query, snapshot: QueryState) {
        let query = queries[key] ?? obtainQuery(key, options: resolve(QueryOptions(), for: key, defaultRetry: 3))
        cancelFetch(query, revert: true, reason: "optimistic update")
        return (query, query.state)
    }

    /// Writes `write` to the query as a manual write at `time` (see `set`); throws when the data
    /// does not fit the query (an infinite query's pages shape).
    func writeOptimistic(_ query: Query, _ write: QueryWrite, at time: Int64) throws(CacheFailure) {
        _ = try set(key: query.key, write, updatedAt: time)
        reportMutationWrite(to: query.key)
    }

    /// Reports that a mutation wrote the query with `key` (see `reportsMutationWrites`).
    func reportMutationWrite(to key: QueryKey) {
        if reportsMutationWrites { effects.append(.mutationWrote(key)) }
    }

    /// Whether `query` is still the cache's entry for its key (not removed and replaced).
    func isCached(_ query: Query) -> Bool { queries[query.key] === query }

    /// Puts back a snapshot exactly (data, dataUpdatedAt, dataUpdateCount, status, error and the
    /// rest) and pushes it. A fetch started since keeps its fetch fields and reverts to the snapshot.
    func restoreSnapshot(_ query: Query, _ snapshot: QueryState) {
        var restored = snapshot
        if let run = query.run {
            restored.fetchStatus = query.fetchStatus
            restored.failureCount = query.state.failureCount
            restored.failureReason = query.state.failureReason
            restored.fetchDirection = query.state.fetchDirection
            run.revertState = snapshot
            run.revertState.fetchStatus = .idle
        } else {
            restored.fetchStatus = .idle
        }
        guard restored != query.state else { return }
        dispatch(.replaced(restored), to: query, reportingData: true)
        reportMutationWrite(to: query.key)
        collectWhenUnused(query, restart: false)
    }

    /// Marks one query invalidated and refetches it when `refetchType` selects it (what
    /// `queries.invalidate` does to each query it matches).
    func invalidate(_ query: Query, refetchType: RefetchType) {
        guard isCached(query) else { return }
        dispatch(.invalidated, to: query)
        if reportsMutationWrites { effects.append(.mutationInvalidated(query.key)) }
        if refetchType.refetches(query) { startFetch(query, options: query.lastOptions, cancelRefetch: true) }
    }

    /// The cached queries `filter` matches, in key order.
    func queries(matching filter: QueryFilter) -> [Query] { matching(filter) }

    /// Makes a subscription id from the cache's counter, so query and mutation subscriptions never
    /// share an id.
    func makeSharedSubscriptionID() -> SubscriptionID { makeSubscriptionID() }
}
