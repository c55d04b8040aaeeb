// Attempts at mutators: sending one, its answer, its failure, the retry wait, and attempt
// timeouts. A missing mutator, a timeout and a mutator that disconnects are failed attempts
// like any other, so the mutation's `retry` decides what follows.

public import QuerydJSON

extension MutationCache {
    /// Sends the next attempt to a mutator; with none registered the attempt fails at once.
    func startAttempt(_ mutation: Mutation) {
        guard let mutator = registry.choose(for: mutation.state.key) else {
            mutation.phase = .queued
            mutation.retryer.attemptStarted()
            mutation.state.isPaused = false
            attemptFailed(mutation, error: AttemptError.noMutator(mutation.state.key), minimumDelay: 1)
            return
        }
        let attempt = makeAttemptID()
        mutation.retryer.attemptStarted()
        mutation.phase = .attempting(attempt)
        mutation.attemptMutator = (mutator.id, mutator.connection)
        attempts[attempt] = mutation
        mutator.inFlight += 1
        if mutation.state.isPaused {
            mutation.state.isPaused = false
            publish(mutation)
        }
        if let timeout = mutation.options.timeout ?? queries.defaultAttemptTimeout {
            mutation.retryer.attemptTimer = scheduler.schedule(after: timeout, .mutationAttemptTimeout(attempt))
        }
        effects.append(
            .sendMutate(
                MutateRequest(
                    attempt: attempt, mutator: mutator.id, connection: mutator.connection, key: mutation.state.key,
                    variables: mutation.state.variables, attemptNumber: mutation.retryer.attempts)))
    }

    /// An attempt's timeout expired: its mutator is told, and the attempt fails.
    func attemptTimedOut(_ attempt: MutationAttemptID) {
        guard let mutation = attempts[attempt] else { return }
        endAttempt(of: mutation, notifyMutator: true)
        attemptFailed(mutation, error: AttemptError.timeout)
    }

    /// Releases the bookkeeping of the attempt in flight (and tells its mutator when asked).
    func endAttempt(of mutation: Mutation, notifyMutator: Bool) {
        if let timer = mutation.retryer.attemptTimer {
            scheduler.cancel(timer)
            mutation.retryer.attemptTimer = nil
        }
        guard let attempt = mutation.currentAttempt else { return }
        attempts[attempt] = nil
        mutation.phase = .queued
        guard let (mutatorID, connection) = mutation.attemptMutator else { return }
        registry.member(mutatorID)?.inFlight -= 1
        if notifyMutator { effects.append(.cancelMutate(attempt, connection: connection)) }
    }

    // MARK: - Answers from mutators

    /// A mutator answered the attempt with `answer` (`{"data": …}`). Late or unknown attempts are
    /// ignored; an answer without data is a failed attempt.
    public func attemptSucceeded(_ attempt: MutationAttemptID, answer: JSONValue) {
        guard let mutation = attempts[attempt] else { return }
        guard let data = answer["data"] else {
            attemptFailed(attempt, error: AttemptError.dataUndefined)
            return
        }
        endAttempt(of: mutation, notifyMutator: false)
        succeed(mutation, data: data)
    }

    /// The attempt failed with `error` (a JSON-RPC error object). Late or unknown attempts are ignored.
    public func attemptFailed(_ attempt: MutationAttemptID, error: JSONValue) {
        guard let mutation = attempts[attempt] else { return }
        endAttempt(of: mutation, notifyMutator: false)
        attemptFailed(mutation, error: error)
    }

    /// Counts a failed attempt, then waits for the retry or fails the mutation. `minimumDelay`
    /// keeps a failure that needs no answer (no mutator) from retrying in a zero-delay loop.
    func attemptFailed(_ mutation: Mutation, error: JSONValue, minimumDelay: Int64 = 0) {
        guard let delay = mutation.retryer.attemptFailed(error, minimumDelay: minimumDelay, jitter: &queries.jitter)
        else {
            fail(mutation, error: error)
            return
        }
        mutation.state.failureCount = mutation.retryer.failures
        mutation.state.failureReason = CacheFailure.mutationFailed(error).jsonValue
        publish(mutation)
        mutation.phase = .waitingToRetry(scheduler.schedule(after: delay, .mutationRetry(mutation)))
    }

    /// The retry delay is over: attempt again, or pause while offline.
    func retryDue(_ mutation: Mutation) {
        guard case .waitingToRetry = mutation.phase else { return }
        mutation.phase = .queued
        if canStart(mutation) {
            startAttempt(mutation)
        } else {
            mutation.state.isPaused = true
            publish(mutation)
        }
    }
}
