// The mutation engine: every mutation, mutator and mutation subscription in the daemon, next to
// the query cache it writes to. It does no I/O: its effects go to the query cache's `effects`, and
// time and timers are the query cache's too, so tests drive it with a `ManualClock`.
// The operations live in extensions by concern: running, attempts, scheduling (scopes and the
// network), optimistic writes, mutators, subscriptions.

import QuerydJSON

/// The mutation cache (TanStack's MutationCache), shared by every connection.
public final class MutationCache {
    /// The query cache that optimistic writes, invalidations and result writes go to.
    public let queries: QueryCache
    /// Whether mutations may start attempts (`network.setOnline`).
    public internal(set) var isOnline = true

    /// Every mutation kept (unsettled, and settled ones until their gcTime), by id.
    var mutations: [MutationID: Mutation] = [:]
    /// Unsettled mutations in submission order.
    var unsettled: [Mutation] = []
    /// Attempts in flight, by id.
    var attempts = ShardedDictionary<MutationAttemptID, Mutation>()
    var registry = MutatorRegistry()
    /// `mutations.setDefaults` entries (their option objects' members).
    var defaults = PrefixDefaults<[String: JSONValue]>()
    var subscriptions: [SubscriptionID: MutationSubscription] = [:]
    /// Optimistic writes still open to a rollback, by query key.
    var optimistic: [QueryKey: OptimisticEntry] = [:]
    /// The mutations paused when the network came back and not settled since; the query cache's
    /// reconnect refetches wait for them.
    var resuming: Set<MutationID> = []
    /// While a mutation settles: the postponed invalidations that became due, run at its end.
    var dueInvalidations: [QueryKey]?

    private var lastMutationID = 0
    private var lastMutatorID = 0
    private var lastAttemptID = 0

    /// A mutation cache over `queries`, sharing its scheduler (and so its clock).
    public init(queries: QueryCache) {
        self.queries = queries
        queries.mutationCache = self
    }

    var scheduler: TimerScheduler<EngineTimer> { queries.scheduler }
    var effects: EffectBuffer { queries.effects }
    var now: Int64 { scheduler.clock.now }

    func makeMutationID() -> MutationID {
        lastMutationID += 1
        return MutationID(lastMutationID)
    }

    func makeMutatorID() -> MutatorID {
        lastMutatorID += 1
        return MutatorID(lastMutatorID)
    }

    func makeAttemptID() -> MutationAttemptID {
        lastAttemptID += 1
        return MutationAttemptID(lastAttemptID)
    }

    // MARK: - Reading

    /// The state of a kept mutation.
    public func state(of id: MutationID) -> MutationState? { mutations[id]?.state }

    /// The kept mutations `filter` covers, in submission order.
    public func list(_ filter: MutationFilter) -> [MutationState] {
        mutations.values.map(\.state).filter(filter.matches).sorted { $0.id < $1.id }
    }

    /// Counts for `server.stats`.
    public struct Statistics: Sendable, Equatable {
        /// Mutations kept, settled or not.
        public var mutations: Int
        /// Mutations not settled yet (TanStack's isMutating()).
        public var pending: Int
        public var mutators: Int
        public var inFlightMutations: Int
    }

    public var statistics: Statistics {
        Statistics(
            mutations: mutations.count, pending: unsettled.count, mutators: registry.members.count,
            inFlightMutations: attempts.count)
    }

    // MARK: - Pushes

    /// Records a change of the mutation's state (a new version) and pushes it to every
    /// subscription that covers the mutation now or covered it before this change.
    func publish(_ mutation: Mutation) {
        mutation.state.version += 1
        let state = mutation.state
        reportPausedChange(of: mutation)
        let ordered = subscriptions.values.sorted { $0.id.rawValue < $1.id.rawValue }
        for subscription in ordered {
            if subscription.filter.matches(state) {
                subscription.covered.insert(state.id)
            } else if subscription.covered.remove(state.id) == nil {
                continue
            }
            effects.append(.pushMutation(state, subscription: subscription.id, connection: subscription.connection))
        }
    }
}
