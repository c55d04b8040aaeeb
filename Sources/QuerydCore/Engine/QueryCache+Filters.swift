// Operations over every query a filter matches: invalidate, refetch, cancel, remove, reset, set
// data, count, list.
//
// Matching walks the query index, so a prefix costs in proportion to the queries it matches, not to
// the size of the cache; the other filter fields are then checked on those queries only. A call
// over many queries runs in slices instead (`sweep(_:_:)`, QueryCache+Sweeps.swift), each pass the
// same `apply` as here.

import QuerydJSON

/// Which matched queries an invalidation refetches.
public enum RefetchType: String, Sendable {
    case active, inactive, all, none
}

extension RefetchType {
    /// Whether an invalidation of `query` with this refetch type refetches it (never a disabled or
    /// static query).
    func refetches(_ query: Query) -> Bool {
        guard !query.isExcludedFromRefetch else { return false }
        switch self {
        case .none: return false
        case .active: return query.isActive
        case .inactive: return !query.isActive
        case .all: return true
        }
    }
}

/// What a filter call does to every query it matches.
public enum FilterOperation: Sendable, Equatable {
    case invalidate(refetchType: RefetchType, cancelRefetch: Bool)
    case refetch(cancelRefetch: Bool)
    case cancel
    case remove
    case reset(cancelRefetch: Bool)

    /// The passes it makes over the matches: invalidate and reset change every match before they
    /// refetch any.
    var passes: Int {
        switch self {
        case .invalidate, .reset: 2
        case .refetch, .cancel, .remove: 1
        }
    }
}

extension QueryCache {
    /// The queries `filter` matches, in key order (canonical text) so effects are deterministic
    /// (unless `sorted` is false: a count needs no order).
    func matching(_ filter: QueryFilter, sorted: Bool = true) -> [Query] {
        var found: [Query] = []
        forEachMatch(filter) { found.append($0.takeUnretainedValue()) }
        if sorted, found.count > 1 {
            found.sort { $0.key < $1.key }
        }
        return found
    }

    /// Calls `body` with every query `filter` matches, unretained, in no order.
    private func forEachMatch(_ filter: QueryFilter, _ body: (Unmanaged<Query>) -> Void) {
        let time = now
        func visit(_ query: Unmanaged<Query>) {
            if !filter.readsState || Self.stateMatches(query.takeUnretainedValue(), filter, now: time) { body(query) }
        }
        if let key = filter.key, filter.exact {
            if let query = queries[QueryKey(elements: key)] { visit(.passUnretained(query)) }
        } else {
            queries.forEachUnretainedMatch(prefix: filter.key ?? [], visit)
        }
    }

    /// Whether the query's activity, staleness and fetch status are what `filter` asks for.
    static func stateMatches(_ query: Query, _ filter: QueryFilter, now: Int64) -> Bool {
        switch filter.type {
        case .all: break
        case .active: if !query.isActive { return false }
        case .inactive: if query.isActive { return false }
        }
        if let stale = filter.stale, query.isStaleForFilters(now: now) != stale { return false }
        if let status = filter.fetchStatus, query.fetchStatus != status { return false }
        return true
    }

    /// Marks matched queries invalidated (stale) and refetches those `refetchType` selects. With
    /// `cancelRefetch` false a fetch in flight is joined instead of replaced (TanStack's
    /// `{cancelRefetch: false}`); a query without data always joins.
    public func invalidate(_ filter: QueryFilter, refetchType: RefetchType, cancelRefetch: Bool = true) -> Int {
        perform(.invalidate(refetchType: refetchType, cancelRefetch: cancelRefetch), on: matching(filter))
    }

    /// Refetches matched queries (skipping disabled and static ones), replacing fetches in flight,
    /// or joining them when `cancelRefetch` is false.
    public func refetchQueries(_ filter: QueryFilter, cancelRefetch: Bool = true) -> Int {
        perform(.refetch(cancelRefetch: cancelRefetch), on: matching(filter))
    }

    /// Cancels the running fetch of every matched query, reverting its state.
    public func cancelQueries(_ filter: QueryFilter) -> Int {
        perform(.cancel, on: matching(filter))
    }

    /// Removes matched queries. A subscribed query comes back empty at once (its subscribers are
    /// pushed that state), so no subscription ever points at a removed entry.
    public func removeQueries(_ filter: QueryFilter) -> Int {
        perform(.remove, on: matching(filter))
    }

    /// Puts matched queries back to their initial state (initial data, if any), then refetches
    /// the active ones. A fetch in flight is dropped (as TanStack's `reset` cancels it); its waiters
    /// get -32003. `cancelRefetch` is passed to the refetch, which finds no fetch left to join.
    public func resetQueries(_ filter: QueryFilter, cancelRefetch: Bool = true) -> Int {
        perform(.reset(cancelRefetch: cancelRefetch), on: matching(filter))
    }

    /// Runs every pass of `operation` over `matched` (in key order) now; returns how many matched.
    func perform(_ operation: FilterOperation, on matched: [Query]) -> Int {
        for pass in 0..<operation.passes {
            for query in matched { apply(operation, pass: pass, to: query) }
        }
        return matched.count
    }

    /// One pass of `operation` on one matched query; a match that left the cache since it was
    /// matched (between the slices of a sweep) is skipped.
    func apply(_ operation: FilterOperation, pass: Int, to query: Query) {
        guard !query.isForgotten else { return }
        switch (operation, pass) {
        case (.invalidate, 0):
            dispatch(.invalidated, to: query)
        case (.invalidate(let refetchType, let cancelRefetch), _):
            if refetchType.refetches(query) {
                startFetch(query, options: query.lastOptions, cancelRefetch: cancelRefetch)
            }
        case (.refetch(let cancelRefetch), _):
            if !query.isExcludedFromRefetch {
                startFetch(query, options: query.lastOptions, cancelRefetch: cancelRefetch)
            }
        case (.cancel, _):
            cancelFetch(query, revert: true, reason: "cancelled")
        case (.remove, _):
            remove(query)
        case (.reset, 0):
            reset(query)
        case (.reset(let cancelRefetch), _):
            if query.isActive, !query.isExcludedFromRefetch {
                startFetch(query, options: query.lastOptions, cancelRefetch: cancelRefetch)
            } else {
                collectWhenUnused(query)
            }
        }
    }

    /// Removes one query; a subscribed one comes back empty at once.
    private func remove(_ query: Query) {
        let dropped = dropFetch(query)
        forget(query)
        guard !query.subscriptions.isEmpty else {
            settleDropped(dropped, of: query, reason: "removed")
            return
        }
        let fresh = obtainQuery(query.key, options: query.lastOptions)
        fresh.gcTime = query.gcTime
        fresh.kind = query.kind
        for subscription in query.subscriptions {
            subscription.query = fresh
            subscription.lastSelected = JSONValue?.none
            subscription.baselineUpdateCount = 0
        }
        fresh.subscriptions = query.subscriptions
        query.subscriptions = []
        publish(fresh)
        settleDropped(dropped, of: fresh, reason: "removed")
    }

    /// Puts one query back to its initial state, dropping its fetch.
    private func reset(_ query: Query) {
        let dropped = dropFetch(query)
        let options = query.lastOptions
        let initial = QueryState(
            initialData: options.initialData, initialDataUpdatedAt: options.initialDataUpdatedAt, now: now)
        dispatch(.replaced(initial), to: query, reportingData: true)
        settleDropped(dropped, of: query, reason: "reset")
    }

    /// Writes data (or a merge patch, applied to each query's own data) to every cached query
    /// `filter` matches, as TanStack's setQueriesData; returns their keys, in key order. All or
    /// nothing: when one match cannot take its new data (an infinite query's shape, the size limit)
    /// nothing is written.
    public func setData(_ filter: QueryFilter, _ write: QueryWrite, updatedAt: Int64?) throws(CacheFailure)
        -> [QueryKey]
    {
        let matched = matching(filter)
        var planned: [PlannedWrite] = []
        planned.reserveCapacity(matched.count)
        for query in matched {
            let plan = try plan(write, for: query)
            let bytes = plan.data.encoded.count + query.key.canonicalByteCount
            if bytes > maxDataBytes { throw .dataTooLarge(bytes: bytes, max: maxDataBytes) }
            planned.append(plan)
        }
        let time = updatedAt ?? now
        for (query, plan) in zip(matched, planned) {
            _ = apply(plan, to: query, at: time)
            collectWhenUnused(query, restart: false)
        }
        return matched.map(\.key)
    }

    /// How many queries `filter` matches (TanStack's isFetching with `fetchStatus: "fetching"`).
    public func count(_ filter: QueryFilter) -> Int {
        matching(filter, sorted: false).count
    }

    /// The matched queries' states (query-level staleness) with their subscription counts.
    public func list(_ filter: QueryFilter) -> [QueryResult] {
        matching(filter).map(listedState)
    }

    /// One page of `list(_:)`: at most `limit` matched queries whose keys' canonical bytes come
    /// after `after` (from the start when nil), in key order, and whether more follow. Paging by
    /// key never skips or repeats a query that exists throughout.
    public func listPage(_ filter: QueryFilter, after: [UInt8]?, limit: Int) -> (page: [QueryResult], more: Bool) {
        var matched = matching(filter)[...]
        if let after {
            // Keys are sorted by their canonical bytes: skip those up to the cursor.
            let start = matched.partitioningIndex { query in
                query.key.withCanonicalBytes { after.lexicographicallyPrecedes($0) }
            }
            matched = matched[start...]
        }
        return (matched.prefix(limit).map(listedState), matched.count > limit)
    }
}

extension ArraySlice {
    /// The first index whose element satisfies `belongs`, for a predicate false then true along the slice.
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Index {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
