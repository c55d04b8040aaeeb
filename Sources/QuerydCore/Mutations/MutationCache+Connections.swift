// Mutator registration, mutation subscriptions, and what a connection's departure does: its
// mutators go, their attempts in flight fail (and are retried elsewhere when retry allows), its
// mutation subscriptions end. Mutations it submitted run on: they belong to the daemon.

public import QuerydJSON

extension MutationCache {
    // MARK: - Mutators

    /// Registers `connection` as the mutator for mutation keys under `prefix`; paused hydrated
    /// mutations it serves start.
    public func registerMutator(connection: ConnectionID, prefix: [JSONValue], exact: Bool) -> MutatorID {
        let id = makeMutatorID()
        let mutator = Mutator(id: id, connection: connection, prefix: prefix, exact: exact)
        registry.add(mutator)
        queries.report(.registered(mutator.registration))
        resumeRunnable()  // hydrated mutations wait for a mutator
        return id
    }

    /// Removes a mutator registration of `connection`. Attempts already sent to it may still be answered.
    public func unregisterMutator(_ id: MutatorID, connection: ConnectionID) throws(CacheFailure) {
        guard let mutator = registry.member(id), mutator.connection == connection else {
            throw .unknownID("mutator", id.rawValue)
        }
        _ = registry.remove(id)
        queries.report(.unregistered(mutator.registration))
    }

    /// Forgets everything of a closed connection: its mutators (their attempts in flight fail with
    /// "Mutator disconnected") and its mutation subscriptions.
    public func connectionClosed(_ connection: ConnectionID) {
        for mutator in registry.removeAll(of: connection) { queries.report(.unregistered(mutator.registration)) }
        let lost = attempts.filter { _, mutation in mutation.attemptMutator?.connection == connection }
            .map(\.key).sorted { $0.rawValue < $1.rawValue }
        for attempt in lost {
            attemptFailed(attempt, error: AttemptError.mutatorDisconnected)
        }
        for subscription in subscriptions.values where subscription.connection == connection {
            subscriptions[subscription.id] = nil
        }
    }

    // MARK: - Subscriptions

    /// Subscribes `connection` to the mutations `filter` covers; returns the id and the states of
    /// the kept mutations it covers now, in submission order. Later changes of covered mutations
    /// are pushed, including the change that makes one leave the filter.
    public func subscribe(connection: ConnectionID, filter: MutationFilter) -> (SubscriptionID, [MutationState]) {
        let subscription = MutationSubscription(
            id: queries.makeSharedSubscriptionID(), connection: connection, filter: filter)
        let states = list(filter)
        subscription.covered = Set(states.map(\.id))
        subscriptions[subscription.id] = subscription
        return (subscription.id, states)
    }

    /// Ends a mutation subscription of `connection`.
    public func unsubscribe(_ id: SubscriptionID, connection: ConnectionID) throws(CacheFailure) {
        guard let subscription = subscriptions[id], subscription.connection == connection else {
            throw .unknownID("subscription", id.rawValue)
        }
        subscriptions[id] = nil
    }
}
