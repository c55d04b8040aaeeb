// `mutations.clear` (TanStack's MutationCache.clear): the mutation cache forgets what it holds.
//
// Settled mutations are forgotten at once (their gcTime no longer matters). A paused mutation
// (waiting for the network, its scope or a mutator) is cancelled first: its optimistic writes are
// rolled back, its callers get -32003 with reason "cleared" (not retryable), subscribers see it
// settle as an error, and then it is forgotten. Mutations with an attempt out at a mutator, or
// waiting out a retry delay, are running and are left alone.

extension MutationCache {
    /// Forgets every settled mutation and cancels and forgets every paused one; returns how many
    /// mutations left the cache.
    public func clear() -> Int {
        var cleared = 0
        // Out of the queue first, so that none of them can start and settling each one (which
        // looks through the unsettled mutations) costs only the running ones.
        let paused = unsettled.filter(\.isQueued)
        unsettled.removeAll { $0.isQueued }
        for mutation in paused {
            fail(mutation, failure: Self.cleared)
            forget(mutation)
            cleared += 1
        }
        for mutation in mutations.values.sorted(by: { $0.id < $1.id }) where mutation.isSettled {
            forget(mutation)
            cleared += 1
        }
        return cleared
    }

    /// What the callers of a cleared mutation get: cancelled on purpose, so not worth retrying as is.
    static let cleared = CacheFailure(.cancelledByServer, data: ["reason": "cleared", "retryable": false])

    /// Drops a settled mutation now, with its garbage-collection timer.
    private func forget(_ mutation: Mutation) {
        if let timer = mutation.gcTimer { scheduler.cancel(timer) }
        mutation.gcTimer = nil
        collect(mutation)
    }
}
