// The engine's timers as values: what is due when a deadline comes, and where each is handled.
//
// The query cache owns the scheduler; `runDueTimers` (and `advance` on the manual clock) hand
// each due event to the cache that scheduled it. A timer holds the object it concerns until it
// fires or is cancelled; every owner cancels its timers when the object leaves (a query's run, a
// subscription's stale and poll timers, a mutation's attempt and retry), and each handler checks
// that what it finds is still current.

/// Something the engine must do at a deadline.
enum EngineTimer {
    /// The unused queries whose gc deadline is this one are collected.
    case collect(deadline: Int64)
    /// A fetch attempt got no answer within its timeout.
    case attemptTimeout(AttemptID, connection: ConnectionID)
    /// A fetch's retry delay is over.
    case retry(Query)
    /// A caller's timeout expired while its fetch waits for a fetcher.
    case waiterTimeout(WaiterToken)
    /// A subscription's data turns stale now.
    case stale(Subscription)
    /// A subscription's poll is due.
    case poll(Subscription)
    /// A mutate attempt got no answer within its timeout.
    case mutationAttemptTimeout(MutationAttemptID)
    /// A mutation's retry delay is over.
    case mutationRetry(Mutation)
    /// A settled mutation's gcTime is over.
    case mutationCollect(Mutation)
}

extension QueryCache {
    /// Runs every timer that is due on the engine's clock (the real clock; the manual clock moves
    /// by `advance`). Effects go to `effects`.
    public func runDueTimers() {
        scheduler.fireDue(fire)
    }

    /// Moves the manual `clock` (the engine's own) forward by `ms`, firing each timer at its deadline.
    public func advance(_ clock: ManualClock, by ms: Int64) {
        scheduler.advance(clock, by: ms, fire: fire)
    }

    /// The next timer deadline (ms since the epoch), to arm the loop's one timer.
    public var nextDeadline: Int64? { scheduler.nextDeadline }

    /// The engine's clock.
    public var clock: any CacheClock { scheduler.clock }

    private func fire(_ timer: EngineTimer) {
        switch timer {
        case .collect(let deadline): collectDue(deadline)
        case .attemptTimeout(let attempt, let connection): attemptTimedOut(attempt, connection: connection)
        case .retry(let query): retryDue(query)
        case .waiterTimeout(let token): waiterTimedOut(token)
        case .stale(let subscription): staleDue(subscription)
        case .poll(let subscription): pollDue(subscription)
        case .mutationAttemptTimeout(let attempt): mutationCache?.attemptTimedOut(attempt)
        case .mutationRetry(let mutation): mutationCache?.retryDue(mutation)
        case .mutationCollect(let mutation): mutationCache?.collect(mutation)
        }
    }
}
