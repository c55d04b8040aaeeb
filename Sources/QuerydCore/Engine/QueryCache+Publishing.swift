// Pushing a query's changes to its subscriptions: each attached subscription's view is made again
// and pushed when it changed, and its stale timer is kept in step with the data.
//
// Views are shared: every subscription without select or a shown placeholder sees a query version
// the same way except for `isStale`, so those get one `QueryView` per (version, isStale), compared
// with what they were last sent once per distinct last view (see `ViewShare`). A publish reads the
// clock once, works out staleness once per distinct staleTime, and passes the query
// down beside each subscription, so the loop over thousands of them stays short.

extension QueryCache {
    /// Pushes the query's new state to every attached subscription whose view changed, and
    /// restarts their polling timers (TanStack restarts them on every query update).
    func publish(_ query: Query) {
        // Nothing to push (the views shared last stay as they are; they name their version).
        if query.subscriptions.isEmpty { return }
        var pass = PublishPass(now: now, share: sharedViews.take(for: query))
        for subscription in query.subscriptions where subscription.lastView != nil {
            refresh(subscription, of: query, in: &pass)
            armIntervalTimer(subscription)
        }
        sharedViews = pass.share
    }

    /// Recomputes one subscription's view, pushes it if it changed (in a field it asked to be
    /// notified about), and re-arms its stale timer.
    func refresh(_ subscription: Subscription) {
        let query = subscription.query
        var pass = PublishPass(now: now, share: sharedViews.take(for: query))
        refresh(subscription, of: query, in: &pass)
        sharedViews = pass.share
    }

    /// A subscription's current view: the shared one when it sees that, else its own.
    func view(of subscription: Subscription) -> QueryView {
        let query = subscription.query
        guard
            ViewShare.applies(
                select: subscription.options.select, placeholder: subscription.options.placeholderData, to: query)
        else {
            return QueryView(result(of: subscription))
        }
        var pass = PublishPass(now: now, share: sharedViews.take(for: query))
        let index = sharedViewIndex(of: subscription, of: query, in: &pass)
        sharedViews = pass.share
        return pass.share.view(at: index)
    }

    /// Schedules the push of the `isStale` flip for data that is fresh now and stale later.
    func armStaleTimer(_ subscription: Subscription) {
        let query = subscription.query
        let staleness = Staleness(
            of: query, staleTime: subscription.options.staleTime, enabled: subscription.options.enabled, now: now)
        armStaleTimer(subscription, deadline: staleness.deadline)
    }

    // MARK: - Helpers

    /// `refresh(_:)` of a subscription of `query`, within a publish.
    private func refresh(_ subscription: Subscription, of query: Query, in pass: inout PublishPass) {
        let last = subscription.lastView
        var current: QueryView
        let unchanged: Bool
        var shared = false
        let staleness = pass.staleness(of: subscription, of: query)
        if ViewShare.applies(
            select: subscription.options.select, placeholder: subscription.options.placeholderData, to: query)
        {
            let index = sharedViewIndex(isStale: staleness.isStale, of: query, in: &pass)
            current = pass.share.view(at: index)
            unchanged = last.map { pass.share.isEqual(at: index, to: $0) } ?? false
            shared = true
        } else {
            current = QueryView(result(of: subscription))
            unchanged = last.map { current.result == $0.result } ?? false
        }
        let deadline = staleness.deadline
        if let names = subscription.options.notifyOnChangeProps, let last,
            !current.result.differs(from: last.result, in: names)
        {
            // Nothing it listens to changed: keep what it was sent as the baseline.
            armStaleTimer(subscription, deadline: deadline)
            return
        }
        if !unchanged {
            if let last, current.result.version <= last.result.version {
                // Only the view changed (the stale flip): the push still needs a newer version.
                query.bumpVersion()
                var bumped = current.result
                bumped.version = query.version
                current = QueryView(bumped)
                if shared { pass.share.add(current, version: bumped.version, isStale: bumped.isStale) }
            }
            subscription.lastView = current
            effects.appendPush(current, subscription: subscription.id, connection: subscription.connection)
        }
        armStaleTimer(subscription, deadline: deadline)
    }

    /// The index in the pass's share of the view a subscription that sees the shared view has now.
    private func sharedViewIndex(of subscription: Subscription, of query: Query, in pass: inout PublishPass) -> Int {
        sharedViewIndex(isStale: pass.staleness(of: subscription, of: query).isStale, of: query, in: &pass)
    }

    /// The index in the pass's share of the view of `query` now with this `isStale`.
    private func sharedViewIndex(isStale: Bool, of query: Query, in pass: inout PublishPass) -> Int {
        pass.share.index(version: query.version, isStale: isStale) { sharedResult(of: query, isStale: isStale) }
    }

    /// Keeps the subscription's stale timer at `deadline` (none: nil).
    private func armStaleTimer(_ subscription: Subscription, deadline: Int64?) {
        if let timer = subscription.staleTimer {
            if subscription.staleDeadline == deadline { return }
            scheduler.cancel(timer)
            subscription.staleTimer = nil
            subscription.staleDeadline = nil
        }
        guard let deadline else { return }
        subscription.staleDeadline = deadline
        subscription.staleTimer = scheduler.schedule(at: deadline, .stale(subscription))
    }

    /// A subscription's data turned stale: its view is made again (and pushed).
    func staleDue(_ subscription: Subscription) {
        subscription.staleTimer = nil
        subscription.staleDeadline = nil
        refresh(subscription)
        // Watchers see the query turn stale for this observer.
        report(.queryChanged(subscription.query))
    }
}

/// Whether a query's data is stale for one staleTime now, and when it turns stale if it is fresh.
private struct Staleness {
    var isStale: Bool
    /// When the data turns stale (fresh data with a finite staleTime only).
    var deadline: Int64?

    init(of query: Query, staleTime: StaleTime, enabled: Bool, now: Int64) {
        isStale = enabled && query.isStale(staleTime: staleTime, now: now)
        if enabled, case .milliseconds(let ms) = staleTime, query.hasData, !query.isInvalidated,
            query.dataUpdatedAt + ms > now
        {
            deadline = query.dataUpdatedAt + ms
        }
    }
}

/// What one publish works with: the time, the shared views, and the staleness last
/// worked out (subscriptions of a key mostly share their staleTime).
private struct PublishPass {
    let now: Int64
    var share: ViewShare
    private var last: (version: UInt64, staleTime: StaleTime, enabled: Bool, staleness: Staleness)?

    init(now: Int64, share: ViewShare) {
        self.now = now
        self.share = share
    }

    /// The staleness a subscription of `query` sees, worked out again only when the query's version,
    /// the staleTime or `enabled` differ from the last one.
    mutating func staleness(of subscription: Subscription, of query: Query) -> Staleness {
        let version = query.version
        let staleTime = subscription.options.staleTime
        let enabled = subscription.options.enabled
        if let last, last.version == version, last.staleTime == staleTime, last.enabled == enabled {
            return last.staleness
        }
        let staleness = Staleness(of: query, staleTime: staleTime, enabled: enabled, now: now)
        last = (version, staleTime, enabled, staleness)
        return staleness
    }
}
