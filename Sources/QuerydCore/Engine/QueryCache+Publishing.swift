// Pushing a query's changes to its subscriptions: each attached subscription's view is made again
// and pushed when it changed, and its stale timer is kept in step with the data.
//
// Views are shared: every subscription without select or a shown placeholder sees a query version
// the same way except for `isStale`, so those get one `QueryView` per (version, isStale), compared
// with what they were last sent once per distinct last view (see `ViewShare`). A publish reads the
// clock once, works out staleness once per distinct staleTime, and passes the query
// down beside each subscription, so the loop over thousands of them stays short. A subscription
// that sees the shared view and was last sent the same view, with the same staleTime and `enabled`,
// as the one refreshed before it gets that one's outcome again (the same push, the same stale
// deadline) without working it out.

extension QueryCache {
    /// Pushes the query's new state to every attached subscription whose view changed, and
    /// restarts their polling timers (TanStack restarts them on every query update).
    func publish(_ query: Query) {
        // Nothing to push (the views shared last stay as they are; they name their version).
        if !query.hasSubscriptions { return }
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
        let plain =
            subscription.options.notifyOnChangeProps == nil
            && ViewShare.applies(
                select: subscription.options.select, placeholder: subscription.options.placeholderData, to: query)
        if plain, pass.repeatsOutcome(for: subscription, of: query) {
            if let pushed = pass.repeatedPush {
                subscription.lastView = pushed
                effects.appendPush(pushed, subscription: subscription.id, connection: subscription.connection)
            }
            armStaleTimer(subscription, deadline: pass.repeatedDeadline)
            return
        }
        let version = query.version
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
        if plain, let last {
            pass.remember(
                Outcome(
                    last: last, version: version, staleTime: subscription.options.staleTime,
                    enabled: subscription.options.enabled, pushed: unchanged ? nil : current, deadline: deadline))
        }
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

/// What one refresh of a subscription that sees the shared view decided, and from what. A class:
/// the check of each following subscription reads it in place.
private final class Outcome {
    /// The view the subscription had been sent, the query's version, and its options that matter.
    let last: QueryView
    let version: UInt64
    let staleTime: StaleTime
    let enabled: Bool
    /// The view pushed (nil: none), and the stale timer's deadline.
    let pushed: QueryView?
    let deadline: Int64?

    init(last: QueryView, version: UInt64, staleTime: StaleTime, enabled: Bool, pushed: QueryView?, deadline: Int64?) {
        self.last = last
        self.version = version
        self.staleTime = staleTime
        self.enabled = enabled
        self.pushed = pushed
        self.deadline = deadline
    }
}

/// What one publish works with: the time, the shared views, the staleness last
/// worked out (subscriptions of a key mostly share their staleTime), and the last outcome.
private struct PublishPass {
    let now: Int64
    var share: ViewShare
    private var last: (version: UInt64, staleTime: StaleTime, enabled: Bool, staleness: Staleness)?
    private var lastOutcome: Outcome?

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

    /// Whether a subscription that sees the shared view gets the outcome remembered last: it was
    /// last sent the same view, with the query at the same version and the same staleTime and
    /// `enabled`.
    func repeatsOutcome(for subscription: Subscription, of query: Query) -> Bool {
        guard let outcome = lastOutcome else { return false }
        return subscription.lastView === outcome.last && query.version == outcome.version
            && subscription.options.staleTime == outcome.staleTime && subscription.options.enabled == outcome.enabled
    }

    /// The remembered outcome's push (nil: none), after `repeatsOutcome` said true.
    var repeatedPush: QueryView? { lastOutcome!.pushed }

    /// The remembered outcome's stale deadline, after `repeatsOutcome` said true.
    var repeatedDeadline: Int64? { lastOutcome!.deadline }

    /// Remembers the outcome of refreshing a subscription that sees the shared view.
    mutating func remember(_ outcome: Outcome) {
        lastOutcome = outcome
    }
}
