// One mutation from `mutation.run` to its settlement: TanStack's Mutation with its retryer.
//
// A mutation is queued (paused) until it may start: the network is online and no earlier
// mutation of its scope is unsettled. It then makes attempts at mutators, waiting out the retry
// delay between them, and settles once: success or error. Its optimistic writes are made at
// submission and are committed or rolled back when it settles.

import QuerydJSON

/// A mutation in the cache.
final class Mutation {
    /// Where the mutation stands.
    enum Phase {
        /// Waiting to start or to continue (scope, network); `isPaused` is true.
        case queued
        /// An attempt is out at a mutator.
        case attempting(MutationAttemptID)
        /// Waiting out the delay before the next attempt.
        case waitingToRetry(TimerHandle)
        /// Succeeded or failed; nothing more happens but garbage collection.
        case settled
    }

    let options: MutationOptions
    var state: MutationState
    var phase = Phase.queued
    var retryer: Retryer
    /// The mutator (and its connection) of the attempt in flight.
    var attemptMutator: (id: MutatorID, connection: ConnectionID)?
    /// The callers waiting for the outcome (answered with the mutator's data or a -32007 failure).
    var waiters: [WaiterToken] = []
    var gcTimer: TimerHandle?
    /// The keys this mutation wrote optimistically, in order (a key may repeat).
    var optimisticKeys: [QueryKey] = []
    /// Came from a snapshot or the store: it waits, paused, for a mutator instead of failing without one.
    var waitsForMutator = false
    /// Its paused state was reported for persistence (so the store may hold it).
    var isPersisted = false

    init(state: MutationState, options: MutationOptions) {
        self.state = state
        self.options = options
        self.retryer = Retryer(retry: options.retry, retryDelay: options.retryDelay)
    }

    var id: MutationID { state.id }

    /// The attempt in flight, if any.
    var currentAttempt: MutationAttemptID? {
        if case .attempting(let id) = phase { return id }
        return nil
    }

    var isQueued: Bool {
        if case .queued = phase { return true }
        return false
    }

    var isSettled: Bool {
        if case .settled = phase { return true }
        return false
    }
}

/// A connection watching the mutations a filter covers.
final class MutationSubscription {
    let id: SubscriptionID
    let connection: ConnectionID
    let filter: MutationFilter
    /// The mutations whose last pushed state matched the filter (their leaving is pushed too).
    var covered: Set<MutationID> = []

    init(id: SubscriptionID, connection: ConnectionID, filter: MutationFilter) {
        self.id = id
        self.connection = connection
        self.filter = filter
    }
}
