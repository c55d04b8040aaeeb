// Subscriptions (TanStack's QueryObserver lifecycle): subscribe with a first view and a fetch when
// the data is missing or stale, switch key or options like a re-rendered observer, unsubscribe.
//
// A subscription is "attached" once its first view is made (`lastView` set); pushes caused by
// the subscribe call itself go out as that reply, never as an earlier `query.changed`.

import QuerydJSON

extension QueryCache {
    /// Subscribes `connection` to `key`; returns the id and the first view (already showing the
    /// fetch the subscription started, if any).
    public func subscribe(connection: ConnectionID, key: QueryKey, options: QueryOptions)
        throws(CacheFailure) -> (SubscriptionID, QueryResult)
    {
        let resolved = resolve(options, for: key, defaultRetry: 3)
        let query = try prepareQuery(key, options: resolved)
        let subscription = Subscription(
            id: makeSubscriptionID(), connection: connection, query: query, options: resolved)
        subscriptions[subscription.id] = subscription
        subscriptionIDsByConnection[connection, default: []].insert(subscription.id)
        attach(subscription, to: query)
        if resolved.enabled, shouldFetchOnSubscribe(query, resolved) {
            startFetch(query, options: resolved, cancelRefetch: false)
        }
        return (subscription.id, makeFirstView(subscription))
    }

    /// Changes a subscription's key and/or options; returns its new view.
    public func setOptions(
        _ id: SubscriptionID, connection: ConnectionID, key newKey: QueryKey?, options: QueryOptions?
    ) throws(CacheFailure) -> QueryResult {
        guard let subscription = subscriptions[id], subscription.connection == connection else {
            throw .unknownID("subscription", id.rawValue)
        }
        let previousQuery = subscription.query
        let previousOptions = subscription.options
        let key = newKey ?? previousQuery.key
        let resolved = options.map { resolve($0, for: key, defaultRetry: 3) } ?? previousOptions
        // Checked before anything changes, so a refused switch leaves the subscription as it was.
        let query = try prepareQuery(key, options: resolved)
        subscription.lastView = nil
        subscription.options = resolved
        if query !== previousQuery {
            if let data = previousQuery.state.data { subscription.previousData = data }
            detach(subscription)
            subscription.lastSelected = JSONValue?.none
            attach(subscription, to: query)
        } else {
            query.adoptGcTime(resolved.gcTime)
            query.lastOptions = resolved
        }
        // TanStack's shouldFetchOptionally: a new query, or a subscription just enabled, fetches
        // when its data is stale (whatever refetchOnSubscribe says); missing data is always stale,
        // even for staleTime "static".
        let switched = query !== previousQuery
        let enabledNow = resolved.enabled && !previousOptions.enabled
        if resolved.enabled, switched || enabledNow, query.isStale(staleTime: resolved.staleTime, now: now) {
            startFetch(query, options: resolved, cancelRefetch: false)
        }
        return makeFirstView(subscription)
    }

    /// Ends a subscription of `connection`.
    public func unsubscribe(_ id: SubscriptionID, connection: ConnectionID) throws(CacheFailure) {
        guard let subscription = subscriptions[id], subscription.connection == connection else {
            throw .unknownID("subscription", id.rawValue)
        }
        subscriptions[id] = nil
        if subscriptionIDsByConnection[connection]?.remove(id) != nil,
            subscriptionIDsByConnection[connection]?.isEmpty == true
        {
            subscriptionIDsByConnection[connection] = nil
        }
        detach(subscription)
    }

    /// How a subscription of `connection` is pushed to: its `push` and `echo` options (nil for an
    /// unknown subscription).
    public func delivery(of id: SubscriptionID, connection: ConnectionID) -> (push: PushMode, echo: Bool)? {
        guard let subscription = subscriptions[id], subscription.connection == connection else { return nil }
        return (subscription.options.push, subscription.options.echo)
    }

    // MARK: - Helpers

    private func attach(_ subscription: Subscription, to query: Query) {
        subscription.query = query
        subscription.baselineUpdateCount = query.state.dataUpdateCount + query.state.errorUpdateCount
        query.subscriptions.append(subscription)
        query.adoptGcTime(subscription.options.gcTime)
        query.lastOptions = subscription.options
        cancelCollection(query)
        // A subscriber arriving during a retry wait revives retries a departed one had stopped.
        query.run?.retriesCancelled = false
        // Watchers see the observer count (and the staleness for the observers) change.
        report(.queryChanged(query))
    }

    private func detach(_ subscription: Subscription) {
        let query = subscription.query
        query.subscriptions.removeAll { $0 === subscription }
        if let timer = subscription.staleTimer { scheduler.cancel(timer) }
        if let timer = subscription.intervalTimer { scheduler.cancel(timer) }
        subscription.staleTimer = nil
        subscription.intervalTimer = nil
        subscription.staleDeadline = nil
        subscription.lastView = nil
        report(.queryChanged(query))
        if query.subscriptions.isEmpty {
            loseInterestIfUnwanted(query)
            collectWhenUnused(query)
        }
    }

    private func makeFirstView(_ subscription: Subscription) -> QueryResult {
        let view = view(of: subscription)
        subscription.lastView = view
        armStaleTimer(subscription)
        armIntervalTimer(subscription)
        return view.result
    }

    /// TanStack's shouldFetchOnMount: missing data loads (unless the last fetch failed and
    /// `retryOnMount` is false); cached data per refetchOnSubscribe.
    private func shouldFetchOnSubscribe(_ query: Query, _ options: ResolvedOptions) -> Bool {
        guard query.hasData else { return options.retryOnMount || query.state.status != .error }
        switch options.refetchOnSubscribe {
        case .always: return options.staleTime != .static
        case .ifStale: return query.isStale(staleTime: options.staleTime, now: now)
        case .never: return false
        }
    }
}
