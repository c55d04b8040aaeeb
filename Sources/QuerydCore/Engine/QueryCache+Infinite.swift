// Infinite queries: a key is either paged or not for its whole life (mixing the two is an invalid
// params error, never a corrupted cache), `fetchNextPage` / `fetchPreviousPage`, and the flags
// derived from the stored page links (hasNextPage, isFetchingNextPage, ...).

import QuerydJSON

extension QueryCache {
    /// The query for `key`, created if needed, after checking that `options` use it the way it is
    /// used (infinite or ordinary). Initial data of an infinite query must be `{pages, pageParams}`.
    func prepareQuery(_ key: QueryKey, options: ResolvedOptions) throws(CacheFailure) -> Query {
        let wantsInfinite = options.infinite != nil
        if let existing = queries[key] {
            switch existing.kind {
            case .ordinary where wantsInfinite:
                throw .kindMismatch(key, "is an ordinary query; it cannot take options.infinite")
            case .infinite where !wantsInfinite:
                throw .kindMismatch(key, "is an infinite query; pass options.infinite")
            case .undecided where wantsInfinite:
                if let data = existing.state.data, InfinitePages(data: data, links: nil) == nil {
                    throw .kindMismatch(key, "holds data that is not {\"pages\": [...], \"pageParams\": [...]}")
                }
            default: break
            }
        }
        // Initial data is applied whenever the query has no data yet, so check it in that case too.
        if wantsInfinite, queries[key]?.hasData != true, let initial = options.initialData,
            InfinitePages(data: initial, links: nil) == nil
        {
            throw .kindMismatch(
                key, "initialData of an infinite query must be {\"pages\": [...], \"pageParams\": [...]}")
        }
        let query = obtainQuery(key, options: options)
        if query.kind == .undecided {
            query.kind = wantsInfinite ? .infinite : .ordinary
        }
        return query
    }

    /// Fetches the next (`.forward`) or previous (`.backward`) page for a subscription, with its
    /// options. With no such page the caller `waiter` is answered at once with the current view;
    /// with no data it loads the first page. The answer is the subscription's view, also when the
    /// fetch failed.
    public func fetchPage(
        _ direction: PageDirection, subscription id: SubscriptionID, connection: ConnectionID, cancelRefetch: Bool,
        waiter: WaiterToken
    ) throws(CacheFailure) {
        guard let subscription = subscriptions[id], subscription.connection == connection else {
            throw .unknownID("subscription", id.rawValue)
        }
        try fetchPage(
            direction, of: subscription.query, options: subscription.options, cancelRefetch: cancelRefetch,
            waiter: waiter, view: .subscription(subscription))
    }

    /// The same for the cached query of `key` with its last options (query-level view). Returns
    /// false (and answers nothing) when the key is not cached.
    @discardableResult
    public func fetchPage(_ direction: PageDirection, key: QueryKey, cancelRefetch: Bool, waiter: WaiterToken)
        throws(CacheFailure) -> Bool
    {
        guard let query = queries[key] else { return false }
        try fetchPage(
            direction, of: query, options: query.lastOptions, cancelRefetch: cancelRefetch, waiter: waiter,
            view: .queryState)
        return true
    }

    private func fetchPage(
        _ direction: PageDirection, of query: Query, options: ResolvedOptions, cancelRefetch: Bool,
        waiter: WaiterToken, view: WaiterView
    ) throws(CacheFailure) {
        guard query.kind == .infinite, let infinite = options.infinite else {
            throw .kindMismatch(query.key, "is not an infinite query")
        }
        if let stored = query.infinitePages, !stored.isEmpty,
            PageFetch.page(direction, of: stored, options: infinite) == nil
        {
            // No such page: nothing to fetch (TanStack's no-op).
            let current =
                switch view {
                case .subscription(let subscription): result(of: subscription)
                default: state(of: query.key)!
                }
            effects.append(.answer(waiter, .success(current)))
            return
        }
        let run = startFetch(query, options: options, cancelRefetch: cancelRefetch, page: direction)
        addWaiter(waiter, to: run, of: query, options: options, acceptsFailedState: true, view: view)
    }

    /// The paging flags of an infinite query's view (nil for an ordinary query).
    func infiniteFlags(of query: Query, status: QueryStatus) -> InfiniteFlags? {
        guard query.kind == .infinite else { return nil }
        let state = query.state
        let links = state.data == nil ? [] : (state.pageLinks ?? [])
        let fetching = state.fetchStatus == .fetching
        return InfiniteFlags(
            hasNextPage: links.last?.next != nil, hasPreviousPage: links.first?.previous != nil,
            isFetchingNextPage: fetching && state.fetchDirection == .forward,
            isFetchingPreviousPage: fetching && state.fetchDirection == .backward,
            isFetchNextPageError: status == .error && state.fetchDirection == .forward,
            isFetchPreviousPageError: status == .error && state.fetchDirection == .backward)
    }
}

/// What an infinite query's view adds to the state object.
public struct InfiniteFlags: Sendable, Equatable {
    public var hasNextPage: Bool
    public var hasPreviousPage: Bool
    public var isFetchingNextPage: Bool
    public var isFetchingPreviousPage: Bool
    public var isFetchNextPageError: Bool
    public var isFetchPreviousPageError: Bool
}

extension CacheFailure {
    /// A key used both as an infinite and as an ordinary query.
    static func kindMismatch(_ key: QueryKey, _ reason: String) -> CacheFailure {
        CacheFailure(
            .invalidParams, data: ["field": "options.infinite", "reason": .string("the query \(key) \(reason)")])
    }
}
