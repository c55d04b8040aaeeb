// Imperative operations on one query: fetch, ensure, prefetch, read, write, refetch and cancel
// (TanStack's fetchQuery, ensureQueryData, prefetchQuery, getQueryData, setQueryData, ...).

public import QuerydJSON

/// What `query.set` writes.
public enum QueryWrite: Sendable {
    /// Replace the data.
    case data(JSONValue)
    /// Apply an RFC 7396 JSON Merge Patch to the data (no data counts as null).
    case mergePatch(JSONValue)
}

/// How `fetch(...)` treats cached data.
public enum FetchMode: Sendable {
    /// Cached data if fresh for the caller's staleTime, else a (shared) fetch.
    case fetch
    /// Cached data of any age; a fetch only when there is none.
    case ensure
}

extension QueryCache {
    /// Answers the caller `waiter` with the query's data per `mode` (an `answer` effect), at once
    /// from the cache or once a fetch settles.
    public func fetch(key: QueryKey, options: QueryOptions, mode: FetchMode, waiter: WaiterToken) throws(CacheFailure) {
        let resolved = resolve(options, for: key, defaultRetry: 0)
        let query = try prepareQuery(key, options: resolved)
        query.lastOptions = resolved
        let hasData = query.hasData
        let usable =
            switch mode {
            case .ensure: hasData
            case .fetch: hasData && !query.isStale(staleTime: resolved.staleTime, now: now)
            }
        if usable {
            let view = result(of: query, staleTime: resolved.staleTime, select: resolved.select)
            effects.append(.answer(waiter, .success(view)))
            collectWhenUnused(query, restart: false)
            query.dropParsedDataIfUnused()
            return
        }
        let run = startFetch(query, options: resolved, cancelRefetch: false)
        addWaiter(waiter, to: run, of: query, options: resolved, acceptsFailedState: false)
    }

    /// Starts a background fetch when the data is missing or stale for `options`; nobody waits.
    public func prefetch(key: QueryKey, options: QueryOptions) throws(CacheFailure) {
        let resolved = resolve(options, for: key, defaultRetry: 0)
        let query = try prepareQuery(key, options: resolved)
        query.lastOptions = resolved
        if query.isStale(staleTime: resolved.staleTime, now: now) {
            startFetch(query, options: resolved, cancelRefetch: false)
        } else {
            collectWhenUnused(query, restart: false)
        }
    }

    /// The query's state seen with no subscription's options: `isStale` uses the default
    /// staleTime 0 (so any data is stale), or nil when the key is not cached.
    public func state(of key: QueryKey) -> QueryResult? {
        guard let query = queries[key] else { return nil }
        let result = result(of: query, staleTime: .milliseconds(0))
        query.dropParsedDataIfUnused()
        return result
    }

    /// Writes data (or a merge patch) as a successful update at `updatedAt` (default now); creates
    /// the query if needed. A fetch in flight keeps running, and a cancel reverts to this write.
    /// With `ifVersion` the write happens only while the query's `version` is that one (0: while
    /// the key is not cached), else `CacheFailure.versionConflict` with the current version.
    /// New data whose encoding (with the key's) is longer than `maxDataBytes` is refused with
    /// `CacheFailure.dataTooLarge`, leaving the query as it was.
    public func set(key: QueryKey, _ write: QueryWrite, updatedAt: Int64?, ifVersion: UInt64? = nil)
        throws(CacheFailure) -> QueryResult
    {
        if let ifVersion {
            let current = queries[key]?.version ?? 0
            guard current == ifVersion else { throw .versionConflict(key, current: current) }
        }
        let query = obtainWrittenQuery(key, now: now)
        let planned = try plan(write, for: query)
        let time = updatedAt ?? now
        var refused: Int?
        if query.kind == .infinite {
            refused = apply(planned, to: query, at: time)
        } else {
            planned.data.withEncoding { refused = storeWrite(encoded: $0, parsed: planned.data, to: query, at: time) }
        }
        collectWhenUnused(query, restart: false)
        if let refused {
            query.dropParsedDataIfUnused()
            throw .dataTooLarge(bytes: refused, max: maxDataBytes)
        }
        let reply =
            query.kind == .infinite
            ? result(of: query, staleTime: .milliseconds(0)) : writtenState(of: query, data: planned.data)
        query.dropParsedDataIfUnused()
        return reply
    }

    /// The data a write leaves in `query`, and an infinite query's page links.
    struct PlannedWrite {
        let data: JSONValue
        let links: [PageLinks]?
    }

    /// Works out what `write` leaves in `query`, refusing data an infinite query cannot hold.
    func plan(_ write: QueryWrite, for query: Query) throws(CacheFailure) -> PlannedWrite {
        let newData: JSONValue
        switch write {
        case .data(let value): newData = value
        case .mergePatch(let patch): newData = (query.state.data ?? .null).applyingMergePatch(patch)
        }
        guard query.kind == .infinite else { return PlannedWrite(data: newData, links: nil) }
        // Page links survive a write that keeps the number of pages (an edited item, say).
        guard let pages = InfinitePages(data: newData, links: query.state.pageLinks) else {
            throw .kindMismatch(
                query.key, "is an infinite query; its data must be {\"pages\": [...], \"pageParams\": [...]}")
        }
        return PlannedWrite(data: newData, links: pages.links)
    }

    /// Stores a planned write as a manual update at `time`; returns the encoded size when it is too
    /// large (the query is then left as it was).
    func apply(_ planned: PlannedWrite, to query: Query, at time: Int64) -> Int? {
        let stored = query.state.data
        let shared = stored == planned.data ? stored! : planned.data
        let write = QueryAction.succeeded(data: shared, at: time, fetched: false, pageLinks: planned.links)
        if let bytes = dispatchWrite(write, to: query) { return bytes }
        if let run = query.run {
            run.revertState = query.state
            run.revertState.fetchStatus = .idle
        }
        return nil
    }

    /// Refetches a subscription's query with its options (even when disabled); the caller `waiter`
    /// is answered with the subscription's view once settled, also when the fetch failed.
    public func refetch(
        subscription id: SubscriptionID, connection: ConnectionID, cancelRefetch: Bool, waiter: WaiterToken
    ) throws(CacheFailure) {
        guard let subscription = subscriptions[id], subscription.connection == connection else {
            throw .unknownID("subscription", id.rawValue)
        }
        let query = subscription.query
        let run = startFetch(query, options: subscription.options, cancelRefetch: cancelRefetch)
        addWaiter(
            waiter, to: run, of: query, options: subscription.options, acceptsFailedState: true,
            view: .subscription(subscription))
    }

    /// Refetches the cached query for `key` with its last options; the caller `waiter` is answered
    /// with the query-level state once settled, also when the fetch failed. Returns false (and
    /// answers nothing) when `key` is not cached.
    @discardableResult
    public func refetch(key: QueryKey, cancelRefetch: Bool, waiter: WaiterToken) -> Bool {
        guard let query = queries[key] else { return false }
        let run = startFetch(query, options: query.lastOptions, cancelRefetch: cancelRefetch)
        addWaiter(
            waiter, to: run, of: query, options: query.lastOptions, acceptsFailedState: true, view: .queryState)
        return true
    }

    /// Cancels the query's running fetch (see `cancelFetch`); nothing happens when none runs.
    public func cancel(key: QueryKey, revert: Bool) {
        guard let query = queries[key] else { return }
        cancelFetch(query, revert: revert, reason: "cancelled")
    }

    /// Ends every wait with `failure` (at shutdown): each waiter gets its `answer` effect.
    public func failAllWaiters(with failure: CacheFailure) {
        for query in queries.all {
            guard let run = query.run else { continue }
            let waiters = run.waiters
            run.waiters = []
            for waiter in waiters {
                waiterQueries[waiter.token] = nil
                if let timer = waiter.timeoutTimer { scheduler.cancel(timer) }
                effects.append(.answer(waiter.token, .failure(failure)))
            }
        }
    }
}
