// What refetches queries besides their subscribers and callers: the network coming back, a
// connection regaining focus, polling intervals, named events (`events.emit`), and what a fetcher
// streams while it answers (`fetch.progress`).
//
// Rules (TanStack v5 where it has them):
// - Offline, no attempt starts (with `networkMode` "online"; "always" ignores the network,
//   "offlineFirst" lets the first attempt start): new fetches and due retries wait with
//   fetchStatus "paused"; an attempt already out at a fetcher goes on.
// - Back online, the mutations paused while offline resume first; once they have all settled
//   (at once when there are none), paused fetches continue (one new attempt each, not a new
//   fetch), then each query whose first enabled subscription allows `refetchOnReconnect`
//   refetches once (TanStack's `resumePausedMutations().then(onOnline)`, so a refetch never shows
//   data from before an offline write). Going offline again before they settle drops that wait.
// - Focus is per connection. Regaining it refetches, once per query, that connection's enabled
//   subscriptions whose `refetchOnFocus` allows it. Losing it stops their polling unless
//   `refetchIntervalInBackground`.
// - Polling restarts on every change of the query, so its period is interval + fetch time; a poll
//   while a fetch runs joins it.

public import QuerydJSON

extension QueryCache {
    // MARK: - Network

    /// Whether fetches may start (`network.setOnline`); true at start.
    public var isOnline: Bool { !offline }

    /// Goes offline or back online, for the mutation cache too (see the rules above).
    public func setOnline(_ online: Bool) {
        guard online == offline else { return }
        offline = !online
        reconnectAwaitsMutations = false
        mutationCache?.setOnline(online)
        guard online else { return }
        if mutationCache?.resuming.isEmpty == false {
            reconnectAwaitsMutations = true
        } else {
            reconnectQueries()
        }
    }

    /// The last mutation resumed at reconnect settled: the queries' reconnect work runs now.
    func resumedMutationsSettled() {
        guard reconnectAwaitsMutations else { return }
        reconnectAwaitsMutations = false
        reconnectQueries()
    }

    /// Continues the fetches paused while offline, then refetches per `refetchOnReconnect`.
    private func reconnectQueries() {
        let paused = queriesWaitingForNetwork.values.sorted { $0.key < $1.key }
        queriesWaitingForNetwork = [:]
        for query in paused {
            guard let run = query.run, case .waitingForNetwork = run.phase else { continue }
            startAttempt(query, run)
        }
        refetch(where: { $0.options.refetchOnReconnect }, in: Array(subscriptions.values))
    }

    // MARK: - Focus

    /// Records a connection's focus; regaining it refetches that connection's stale subscriptions.
    public func setFocused(_ focused: Bool, connection: ConnectionID) {
        guard focused == unfocusedConnections.contains(connection) else { return }
        if focused {
            unfocusedConnections.remove(connection)
        } else {
            unfocusedConnections.insert(connection)
        }
        let owned = subscriptions.values.filter { $0.connection == connection }
        // Only polls that depend on focus start or stop; background polls keep their schedule.
        for subscription in owned where !subscription.options.refetchIntervalInBackground {
            armIntervalTimer(subscription)
        }
        if focused { refetch(where: { $0.options.refetchOnFocus }, in: owned) }
    }

    /// Whether a connection has said it is not focused.
    func isFocused(_ connection: ConnectionID) -> Bool { !unfocusedConnections.contains(connection) }

    // MARK: - Events

    /// Refetches every query with an enabled subscription listing `name` in `refetchOn`; returns
    /// how many queries that was.
    public func emit(_ name: String) -> Int {
        let listening = subscriptions.values.filter { $0.options.enabled && $0.options.refetchOn.contains(name) }
        var queries: [ObjectIdentifier: (Query, Subscription)] = [:]
        for subscription in listening where queries[ObjectIdentifier(subscription.query)] == nil {
            queries[ObjectIdentifier(subscription.query)] = (subscription.query, subscription)
        }
        for (query, subscription) in queries.values.sorted(by: { $0.0.key < $1.0.key }) {
            startFetch(query, options: subscription.options, cancelRefetch: false)
        }
        return queries.count
    }

    /// For each query, the first enabled subscription (by id) whose trigger allows it refetches it once.
    private func refetch(where trigger: (Subscription) -> RefetchTrigger, in candidates: [Subscription]) {
        var done = Set<ObjectIdentifier>()
        for subscription in candidates.sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
            let query = subscription.query
            guard subscription.options.enabled, !done.contains(ObjectIdentifier(query)) else { continue }
            let stale = query.isStale(staleTime: subscription.options.staleTime, now: now)
            guard subscription.options.allows(trigger(subscription), isStale: stale) else { continue }
            done.insert(ObjectIdentifier(query))
            startFetch(query, options: subscription.options, cancelRefetch: false)
        }
    }

    // MARK: - Polling

    /// (Re)starts a subscription's poll timer, or stops it when polling does not apply now.
    func armIntervalTimer(_ subscription: Subscription) {
        if let timer = subscription.intervalTimer {
            scheduler.cancel(timer)
            subscription.intervalTimer = nil
        }
        let options = subscription.options
        guard let interval = options.refetchInterval, options.enabled, subscription.lastView != nil,
            options.refetchIntervalInBackground || isFocused(subscription.connection)
        else { return }
        subscription.intervalTimer = scheduler.schedule(after: interval, .poll(subscription))
    }

    /// A subscription's poll is due: its query refetches (or joins the fetch running), and the
    /// next poll is armed.
    func pollDue(_ subscription: Subscription) {
        subscription.intervalTimer = nil
        startFetch(subscription.query, options: subscription.options, cancelRefetch: false)
        armIntervalTimer(subscription)
    }

    // MARK: - Streaming

    /// A fetcher streamed partial data for an attempt still in flight: it is published at once as
    /// the query's data while the fetch goes on, and becomes what a cancel reverts to.
    public func attemptProgressed(_ attempt: AttemptID, data: JSONValue) {
        guard let query = attempts[attempt], let run = query.run, run.currentAttempt == attempt,
            query.kind != .infinite
        else { return }
        let shared = query.state.data == data ? query.state.data! : data
        dispatch(.succeeded(data: shared, at: now, fetched: false, pageLinks: nil), to: query, reportingData: true)
        run.revertState = query.state
        run.revertState.fetchStatus = .idle
    }
}
