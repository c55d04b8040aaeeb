// Submitting a mutation and settling it: optimistic writes at submission, then on success the
// commit of those writes, the result writes and the invalidations; on failure the rollback.
//
// Rules (TanStack's Mutation.execute, adapted to remote mutators):
// - `run` writes the optimistic data at once, even when the mutation must wait (scope, offline),
//   so subscribers see it immediately; the mutation is `pending` from its submission.
// - A success commits the optimistic writes, writes `setData` values from the result, starts the
//   invalidations, then reports `success`; the invalidations' refetches run in the background.
// - A failure after the retries restores every optimistically written query exactly, then
//   reports `error`; the caller gets -32007 with the mutator's last error.

public import QuerydJSON

extension CacheFailure {
    /// The mutation failed after its retries; `mutatorError` is the last attempt's error object.
    static func mutationFailed(_ mutatorError: JSONValue) -> CacheFailure {
        CacheFailure(.mutationFailed, data: mutatorError)
    }
}

extension MutationCache {
    /// Submits a mutation of `key` with `variables` (null when none); the caller `waiter` is
    /// answered (`answerMutation`) with the mutator's data or the failure once it settles. The optimistic writes are made before this
    /// returns. Throws (and submits nothing) when an optimistic write does not fit its query.
    @discardableResult
    public func run(
        connection: ConnectionID, key: QueryKey, variables: JSONValue, options: MutationOptions,
        waiter: WaiterToken
    ) throws(CacheFailure) -> MutationID {
        var state = MutationState(
            id: makeMutationID(), key: key, variables: variables, submittedAt: now, scope: options.scope)
        state.meta = options.meta
        let mutation = Mutation(state: state, options: options)
        try applyOptimisticWrites(of: mutation)
        mutation.waiters.append(waiter)
        mutations[mutation.id] = mutation
        unsettled.append(mutation)
        let startsNow = canStart(mutation)
        mutation.state.isPaused = !startsNow
        publish(mutation)
        queries.report(.mutationStarted(mutation.state))
        if startsNow { startAttempt(mutation) }
        return mutation.id
    }

    /// Reports success: commits, writes the result, invalidates, then settles the caller. The
    /// invalidations run at once, or in slices when a filter matches more than a slice of queries
    /// (`MutationInvalidationSweep`, which settles the caller after the last).
    func succeed(_ mutation: Mutation, data: JSONValue) {
        mutation.phase = .settled
        dueInvalidations = []
        commitOptimisticWrites(of: mutation)
        writeResult(data, of: mutation)
        let invalidations = MutationInvalidationSweep(mutation, data: data, in: self)
        let doneAtOnce = invalidations.invalidateAtOnce(in: queries)
        let due = dueInvalidations ?? []
        dueInvalidations = nil
        guard doneAtOnce else {
            invalidations.continueAsSweep(due: due, in: queries)
            return
        }
        invalidations.invalidateDue(due, in: queries)
        settleSuccess(mutation, data: data)
    }

    /// The success after the invalidations: the state, its push, and the callers' answer.
    func settleSuccess(_ mutation: Mutation, data: JSONValue) {
        mutation.state.status = .success
        mutation.state.data = data
        mutation.state.error = nil
        mutation.state.failureCount = 0
        mutation.state.failureReason = nil
        mutation.state.isPaused = false
        publish(mutation)
        finish(mutation, .success(data))
    }

    /// Reports the final failure: rolls the optimistic writes back, then settles the caller.
    func fail(_ mutation: Mutation, error: JSONValue) {
        fail(mutation, failure: .mutationFailed(error))
    }

    /// Settles the mutation with `failure` (its state's `error`, the callers' answer).
    func fail(_ mutation: Mutation, failure: CacheFailure) {
        mutation.phase = .settled
        dueInvalidations = []
        rollBackOptimisticWrites(of: mutation)
        runDueInvalidations()
        mutation.state.status = .error
        mutation.state.error = failure.jsonValue
        mutation.state.failureCount = mutation.retryer.failures
        mutation.state.failureReason = failure.jsonValue
        mutation.state.isPaused = false
        publish(mutation)
        finish(mutation, .failure(failure))
    }

    /// Answers the callers, arms garbage collection, lets the next mutations start, and lets the
    /// queries' reconnect work run once the last mutation resumed at reconnect has settled.
    private func finish(_ mutation: Mutation, _ outcome: Result<JSONValue, CacheFailure>) {
        unsettled.removeAll { $0 === mutation }
        queries.report(.mutationSettled(mutation.state))
        let waiters = mutation.waiters
        mutation.waiters = []
        for waiter in waiters { effects.append(.answerMutation(waiter, outcome)) }
        if let gcTime = mutation.options.gcTime {
            mutation.gcTimer = scheduler.schedule(after: gcTime, .mutationCollect(mutation))
        }
        resumeRunnable()
        if resuming.remove(mutation.id) != nil, resuming.isEmpty { queries.resumedMutationsSettled() }
    }

    /// A settled mutation's gcTime is over: it is forgotten.
    func collect(_ mutation: Mutation) {
        mutations[mutation.id] = nil
        for subscription in subscriptions.values { subscription.covered.remove(mutation.id) }
    }

    /// Writes the `setData` values taken from the mutator's data. A pointer that does not resolve
    /// in the data writes nothing and invalidates its key instead, so the query refetches.
    private func writeResult(_ data: JSONValue, of mutation: Mutation) {
        for target in mutation.options.setData {
            guard let value = target.fromResult.resolve(in: data) else {
                if let query = queries.query(target.key) { queries.invalidate(query, refetchType: .active) }
                continue
            }
            writeSettled(.data(value), to: target.key, by: mutation)
        }
    }

    /// Runs the postponed invalidations that a failed settlement made due, once each (a success
    /// runs them through its `MutationInvalidationSweep`).
    private func runDueInvalidations() {
        let due = dueInvalidations ?? []
        dueInvalidations = nil
        var seen: Set<QueryKey> = []
        for key in due where seen.insert(key).inserted {
            if let query = queries.query(key) { queries.invalidate(query, refetchType: .active) }
        }
    }
}
