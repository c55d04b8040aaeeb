// The life of a fetch: start or join, attempts at fetchers, retries with backoff, pauses while no
// fetcher matches, timeouts, cancellation with revert, and what happens when nobody wants it.
//
// Rules (TanStack's retryer and Query.fetch, adapted to remote fetchers):
// - One run per query. A new fetch joins the run in flight, unless the caller asked to cancel the
//   refetch and the query already has data: then the old attempt is abandoned (its fetcher gets
//   `$/cancelRequest`, its late answer is ignored) and a new run takes over the old run's waiters.
// - After a failed attempt the run retries while its `retry` allows, waiting
//   `retryDelay` (default min(1000 * 2^(failures-1), 30000) ms); the final failure is an error
//   state that keeps the data, and callers get -32001 with the fetcher's error.
// - With no fetcher for the key the run waits (fetchStatus "paused") until one registers; a
//   caller with a timeout gives up with -32002 when it expires first.
// - When the last subscriber and caller leave a running fetch: a cancellable fetcher's attempt is
//   cancelled and the query reverts; otherwise the attempt completes but is not retried.

public import QuerydJSON

extension QueryCache {
    /// Starts a fetch of `query` with `options`, or joins the one in flight; returns the run. For an
    /// infinite query the fetch refetches its pages, or fetches one more page in `page`'s direction.
    @discardableResult
    func startFetch(_ query: Query, options: ResolvedOptions, cancelRefetch: Bool, page: PageDirection? = nil)
        -> FetchRun
    {
        var inherited: [FetchRun.Waiter] = []
        if let run = query.run {
            guard cancelRefetch, query.hasData else {
                run.retriesCancelled = false
                return run
            }
            // Replace the running fetch: its waiters move to the new run.
            abandonAttempt(of: run)
            inherited = run.waiters
            query.run = nil
        }
        var revert = query.state
        revert.fetchStatus = .idle
        let run = FetchRun(options: options, revertState: revert, startedAt: now)
        run.waiters = inherited
        if query.kind == .infinite, let infinite = options.infinite {
            let stored = query.infinitePages
            if let page, let stored, let plan = PageFetch.page(page, of: stored, options: infinite) {
                run.pageFetch = plan
            } else {
                run.pageFetch = .refetch(stored, options: infinite)
            }
        }
        query.run = run
        fetchTotals.started += 1
        report(.fetchStarted(query.key))
        cancelCollection(query)
        let fetcher = networkAllowsAttempt(run) ? registry.choose(for: query.key) : nil
        // A page call on a query without data loads its first page, still shown as that page fetch.
        dispatch(.fetchStarted(paused: fetcher == nil, direction: run.pageFetch == nil ? nil : page), to: query)
        startAttempt(query, run)
        return run
    }

    /// Sends the next attempt to a fetcher, or parks the run until the network is back or a
    /// fetcher registers.
    func startAttempt(_ query: Query, _ run: FetchRun) {
        if !networkAllowsAttempt(run) {
            run.phase = .waitingForNetwork
            queriesWaitingForNetwork[query.key] = query
            if query.fetchStatus != .paused { dispatch(.fetchStatus(.paused), to: query) }
            return
        }
        guard let fetcher = registry.choose(for: query.key) else {
            run.phase = .waitingForFetcher
            queriesWaitingForFetcher.insert(query)
            if query.fetchStatus != .paused { dispatch(.fetchStatus(.paused), to: query) }
            return
        }
        queriesWaitingForFetcher.remove(query)
        let attempt = makeAttemptID()
        run.retryer.attemptStarted()
        run.phase = .attempting(attempt)
        run.attemptFetcher = (fetcher.id, fetcher.connection)
        run.lastAttemptCancellable = fetcher.cancellable
        attempts[attempt] = query
        attemptsByConnection[fetcher.connection, default: ShardedSet()].insert(attempt)
        fetcher.inFlight += 1
        if query.fetchStatus != .fetching { dispatch(.fetchStatus(.fetching), to: query) }
        if let timeout = run.options.timeout ?? defaultAttemptTimeout {
            run.retryer.attemptTimer = scheduler.schedule(
                after: timeout, .attemptTimeout(attempt, connection: fetcher.connection))
        }
        effects.append(
            .sendFetch(
                FetchRequest(
                    attempt: attempt, fetcher: fetcher.id, connection: fetcher.connection, key: query.key,
                    attemptNumber: run.retryer.attempts, meta: run.options.meta,
                    page: run.pageFetch.map { ($0.param, $0.direction) })))
    }

    /// Whether the run's `networkMode` lets its next attempt start in the current network state.
    private func networkAllowsAttempt(_ run: FetchRun) -> Bool {
        run.options.networkMode.allowsAttempt(online: !offline, attemptsSoFar: run.retryer.attempts)
    }

    /// An attempt's timeout expired: its fetcher is told, and the attempt fails.
    func attemptTimedOut(_ attempt: AttemptID, connection: ConnectionID) {
        effects.append(.cancelFetch(attempt, connection: connection))
        attemptFailed(attempt, error: AttemptError.timeout)
    }

    /// Ends the attempt in flight without an answer (and tells its fetcher), or stops a retry wait.
    func abandonAttempt(of run: FetchRun) {
        endAttempt(of: run, notifyFetcher: true)
        if case .waitingToRetry(let timer) = run.phase { scheduler.cancel(timer) }
        run.phase = .waitingForFetcher
    }

    /// Releases the bookkeeping of the attempt in flight.
    private func endAttempt(of run: FetchRun, notifyFetcher: Bool) {
        if let timer = run.retryer.attemptTimer {
            scheduler.cancel(timer)
            run.retryer.attemptTimer = nil
        }
        guard case .attempting(let attempt) = run.phase, let (fetcherID, connection) = run.attemptFetcher else {
            return
        }
        attempts[attempt] = nil
        forgetAttempt(attempt, of: connection)
        registry.member(fetcherID)?.inFlight -= 1
        if notifyFetcher { effects.append(.cancelFetch(attempt, connection: connection)) }
    }

    /// The run an attempt id belongs to, when that attempt is still the run's current one.
    func currentRun(for attempt: AttemptID) -> (Query, FetchRun)? {
        guard let query = attempts[attempt], let run = query.run, run.currentAttempt == attempt else { return nil }
        return (query, run)
    }

    // MARK: - Answers from fetchers

    /// A fetcher answered the attempt with `answer` (`{"data": …}`, plus `nextPageParam` /
    /// `previousPageParam` for a page). Late or unknown attempts are ignored; an answer without
    /// data is a failed attempt.
    public func attemptSucceeded(_ attempt: AttemptID, answer: JSONValue) {
        succeed(attempt, answer: answer, at: nil)
    }

    /// `attemptSucceeded`, with the data's `dataUpdatedAt` given (`nil`: now); `wholeList` answers an
    /// infinite query's fetch with all its pages at once (its `answer` is their data).
    func succeed(_ attempt: AttemptID, answer: JSONValue, at updatedAt: Int64?, wholeList: InfinitePages? = nil) {
        guard let (query, run) = currentRun(for: attempt) else { return }
        guard let page = answer["data"] else {
            attemptFailed(attempt, error: AttemptError.dataUndefined)
            return
        }
        endAttempt(of: run, notifyFetcher: false)
        var data = page
        var links: [PageLinks]?
        if let wholeList {
            links = wholeList.links
        } else if var plan = run.pageFetch {
            guard let pages = plan.receive(page, links: PageLinks(answer: answer)) else {
                // A refetch goes on with the next stored page; its retries start afresh.
                run.pageFetch = plan
                run.retryer.restartAttempts()
                startAttempt(query, run)
                return
            }
            data = pages.jsonValue
            links = pages.links
        }
        query.run = nil
        // Structural sharing: equal data keeps the stored value, so nothing downstream re-encodes it.
        let stored = query.state.data
        let shared = stored == data ? stored! : data
        if let bytes = dispatchWrite(
            .succeeded(data: shared, at: updatedAt ?? now, fetched: true, pageLinks: links), to: query)
        {
            // Data that could never be sent back fails the fetch (a retry would bring it again).
            fail(run, of: query, error: AttemptError.dataTooLarge(bytes: bytes, max: maxDataBytes))
            return
        }
        settle(run, of: query)
        collectWhenUnused(query)
    }

    /// The attempt failed with `error` (a JSON-RPC error object). Late or unknown attempts are ignored.
    public func attemptFailed(_ attempt: AttemptID, error: JSONValue) {
        guard let (query, run) = currentRun(for: attempt) else { return }
        endAttempt(of: run, notifyFetcher: false)
        let delay = run.retryer.attemptFailed(error, jitter: &jitter)
        guard !run.retriesCancelled, let delay else {
            fail(run, of: query, error: error)
            return
        }
        let wrapped = CacheFailure.fetchFailed(error).jsonValue
        dispatch(.attemptFailed(failures: run.retryer.failures, reason: wrapped), to: query)
        run.phase = .waitingToRetry(scheduler.schedule(after: delay, .retry(query)))
    }

    /// A run's retry delay is over: the next attempt starts, unless nobody wants the result any more.
    func retryDue(_ query: Query) {
        guard let run = query.run, case .waitingToRetry = run.phase else { return }
        if run.retriesCancelled {
            fail(run, of: query, error: run.retryer.lastFailure ?? AttemptError.cancelled)
        } else {
            startAttempt(query, run)
        }
    }

    /// Ends the run with a final error.
    private func fail(_ run: FetchRun, of query: Query, error: JSONValue) {
        query.run = nil
        queriesWaitingForFetcher.remove(query)
        queriesWaitingForNetwork[query.key] = nil
        dispatch(.failed(error: CacheFailure.fetchFailed(error).jsonValue, at: now), to: query)
        settle(run, of: query, failure: .fetchFailed(error))
        collectWhenUnused(query)
    }

    /// Answers every waiter of a finished run: with its view of the query, or with `failure`.
    private func settle(_ run: FetchRun, of query: Query, failure: CacheFailure? = nil) {
        fetchTotals.settled(after: now - run.startedAt)
        report(.fetchSettled(query.key, succeeded: failure == nil && query.state.status == .success))
        let waiters = run.waiters
        run.waiters = []
        // Consecutive waiters that see the query alike (a herd of callers with the same options)
        // share one answer, made once: the server encodes it once for all of them.
        var index = waiters.startIndex
        while index < waiters.endIndex {
            let first = waiters[index]
            var tokens = [first.token]
            var next = index + 1
            while next < waiters.endIndex, waiters[next].seesTheSame(as: first) {
                tokens.append(waiters[next].token)
                next += 1
            }
            for waiter in waiters[index..<next] {
                waiterQueries[waiter.token] = nil
                if let timer = waiter.timeoutTimer { scheduler.cancel(timer) }
            }
            let answer = outcome(for: first, of: query, failure: failure)
            effects.append(tokens.count == 1 ? .answer(first.token, answer) : .answerAll(tokens, answer))
            index = next
        }
    }

    /// What a waiter of a settled run is answered: the view it asked for (see `WaiterView`), or
    /// `failure` when it does not accept a failed state.
    private func outcome(for waiter: FetchRun.Waiter, of query: Query, failure: CacheFailure?)
        -> Result<QueryResult, CacheFailure>
    {
        switch waiter.view {
        case .subscription(let subscription)
        where subscriptions[subscription.id] === subscription && subscription.query === query:
            return .success(result(of: subscription))
        case .queryState:
            if let view = state(of: query.key) { return .success(view) }
        default:
            break
        }
        if let failure, !waiter.acceptsFailedState { return .failure(failure) }
        return .success(result(of: query, staleTime: waiter.staleTime, select: waiter.select))
    }

    // MARK: - Waiting callers

    /// Adds the caller `token` waiting for the run of `query` to settle; it is answered with an
    /// `answer` effect, and `cancelWaiter` withdraws it.
    func addWaiter(
        _ token: WaiterToken, to run: FetchRun, of query: Query, options: ResolvedOptions, acceptsFailedState: Bool,
        view: WaiterView = .caller
    ) {
        var waiter = FetchRun.Waiter(
            token: token, staleTime: options.staleTime, select: options.select,
            acceptsFailedState: acceptsFailedState, view: view)
        if let timeout = options.timeout {
            waiter.timeoutTimer = scheduler.schedule(after: timeout, .waiterTimeout(token))
        }
        run.waiters.append(waiter)
        waiterQueries[token] = query
    }

    /// A caller's timeout expired: it gives up only if its fetch is still waiting for a fetcher
    /// (an attempt in flight has its own timeout).
    func waiterTimedOut(_ token: WaiterToken) {
        guard let query = waiterQueries[token], let run = query.run,
            case .waitingForFetcher = run.phase,
            let index = run.waiters.firstIndex(where: { $0.token == token })
        else { return }
        run.waiters.remove(at: index)
        waiterQueries[token] = nil
        effects.append(.answer(token, .failure(.noFetcher(query.key))))
        loseInterestIfUnwanted(query)
    }

    /// The caller no longer wants the answer (it cancelled its request or disconnected). Its
    /// completion is not called; the fetch goes on only while someone else still wants it.
    public func cancelWaiter(_ token: WaiterToken) {
        guard let query = waiterQueries.removeValue(forKey: token) else { return }
        if let run = query.run, let index = run.waiters.firstIndex(where: { $0.token == token }) {
            let waiter = run.waiters.remove(at: index)
            if let timer = waiter.timeoutTimer { scheduler.cancel(timer) }
        }
        loseInterestIfUnwanted(query)
    }

    /// When no subscriber and no caller wants the running fetch any more: cancel it (with revert)
    /// if nothing is in flight or its fetcher is cancellable, else let the attempt finish unretried.
    func loseInterestIfUnwanted(_ query: Query) {
        guard let run = query.run, run.waiters.isEmpty, query.subscriptions.isEmpty else { return }
        switch run.phase {
        case .attempting where !run.lastAttemptCancellable, .waitingToRetry where !run.lastAttemptCancellable:
            run.retriesCancelled = true
        default:
            cancelFetch(query, revert: true, reason: "cancelled")
        }
    }

    // MARK: - Cancellation

    /// Cancels the query's running fetch. With `revert`, the state goes back to what it was when
    /// the fetch started (or to the last manual write since); waiters get that data, or -32003
    /// when there is none. Without, the query ends in an error state carrying the cancellation.
    func cancelFetch(_ query: Query, revert: Bool, reason: String) {
        guard let run = query.run else { return }
        abandonAttempt(of: run)
        query.run = nil
        queriesWaitingForFetcher.remove(query)
        queriesWaitingForNetwork[query.key] = nil
        if revert {
            dispatch(.replaced(run.revertState), to: query)
        } else {
            dispatch(.failed(error: CacheFailure.fetchFailed(AttemptError.cancelled).jsonValue, at: now), to: query)
        }
        let failure: CacheFailure? = revert && query.hasData ? nil : .cancelled(reason)
        settle(run, of: query, failure: failure)
        collectWhenUnused(query)
    }

    /// Stops the running fetch without touching the state (reset and remove replace it); the
    /// caller answers its waiters with `settleDropped` once the new state is in place.
    func dropFetch(_ query: Query) -> FetchRun? {
        guard let run = query.run else { return nil }
        abandonAttempt(of: run)
        query.run = nil
        queriesWaitingForFetcher.remove(query)
        queriesWaitingForNetwork[query.key] = nil
        return run
    }

    /// Answers the waiters of a dropped fetch: callers get -32003, refetch callers the new state.
    func settleDropped(_ run: FetchRun?, of query: Query, reason: String) {
        guard let run else { return }
        settle(run, of: query, failure: .cancelled(reason))
    }
}
