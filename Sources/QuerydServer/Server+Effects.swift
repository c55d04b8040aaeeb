// Applying the engine's effects: the one place where what the engine decided becomes lines on
// connections (requests to fetchers and mutators, their withdrawal, pushes, answers to waiting
// callers) and calls to the persistence writer.
//
// Effects are applied in the order they were decided, before any reply is written (a reply drains
// them first, see `PendingReply`), after every dispatched input, and before every flush. Applying
// one never calls back into the engine.

import QuerydCore
import QuerydRPC

extension Server {
    /// Applies every effect the engine has decided and not yet handed over.
    @inline(__always)
    func applyEffects() {
        if !cache.effects.isEmpty {
            cache.effects.drain(pushes: { applyPushes(&$0) }) { apply($0) }
        }
    }

    private func apply(_ effect: EngineEffect) {
        switch effect {
        case .sendFetch(let request):
            if let cluster { cluster.fetch(request) } else { sendFetchLocally(request) }
        case .cancelFetch(let attempt, let connection):
            cluster?.fetchWithdrawn(attempt)
            cancelFetchLocally(attempt, connection: connection)
        case .push(let view, let subscription, let connection):
            push(view, to: subscription, connection: connection)
        case .answer(let token, let outcome):
            guard let reply = waitingCallers.take(token) else { return }
            switch outcome {
            case .success(let result): reply.succeed(writing: { result.write(to: &$0) })
            case .failure(let failure): reply.fail(RPCError(failure: failure))
            }
        case .answerAll(let tokens, let outcome):
            answerAll(tokens, outcome)
        case .sendMutate(let request):
            if let cluster { cluster.mutate(request) } else { sendMutateLocally(request) }
        case .cancelMutate(let attempt, let connection):
            cluster?.mutateWithdrawn(attempt)
            cancelMutateLocally(attempt, connection: connection)
        case .pushMutation(let state, let subscription, let connection):
            guard let session = session(for: connection) else { return }
            session.outbox.appendMutationPush(state, to: subscription)
            counters.pushes &+= 1
            markDirty(session)
        case .answerMutation(let token, let outcome):
            guard let reply = waitingCallers.take(token) else { return }
            switch outcome {
            case .success(let data): reply.succeed(["data": data])
            case .failure(let failure): reply.fail(RPCError(failure: failure))
            }
        case .dataChanged(let query):
            dataObserver?.queryDataChanged(query)
        case .queryRemoved(let key):
            dataObserver?.queryRemoved(key)
        case .cacheEvent(let event):
            deliver(event)
        case .pausedMutationsChanged:
            dataObserver?.pausedMutationsChanged()
        case .mutationWrote(let key):
            cluster?.mutationWrote(key)
        case .mutationInvalidated(let key):
            cluster?.mutationInvalidated(key)
        }
    }

    /// Answers a herd of waiting callers with one outcome, encoded once; each reply splices its id in.
    private func answerAll(_ tokens: [WaiterToken], _ outcome: Result<QueryResult, CacheFailure>) {
        switch outcome {
        case .success(let result):
            var encoded: [UInt8] = []
            result.write(to: &encoded)
            for token in tokens { waitingCallers.take(token)?.succeed(encoded: encoded) }
        case .failure(let failure):
            let error = RPCError(failure: failure)
            for token in tokens { waitingCallers.take(token)?.fail(error) }
        }
    }

    /// Sends a fetch request to the fetcher's own connection (also the cluster layer's way out).
    func sendFetchLocally(_ request: FetchRequest) {
        session(for: request.connection)?.send(request)
    }

    /// Withdraws a fetch request sent with `sendFetchLocally` (`$/cancelRequest`).
    func cancelFetchLocally(_ attempt: AttemptID, connection: ConnectionID) {
        session(for: connection)?.cancel(.fetch(attempt))
    }

    /// Sends a mutate request to the mutator's own connection (also the cluster layer's way out).
    func sendMutateLocally(_ request: MutateRequest) {
        session(for: request.connection)?.send(request)
    }

    /// Withdraws a mutate request sent with `sendMutateLocally` (`$/cancelRequest`).
    func cancelMutateLocally(_ attempt: MutationAttemptID, connection: ConnectionID) {
        session(for: connection)?.cancel(.mutate(attempt))
    }

    /// Registers `reply` as waiting for an engine answer; returns the token to hand to the engine.
    func waitForAnswer(_ reply: PendingReply) -> WaiterToken {
        waitingCallers.add(reply)
    }

    /// The caller `token` no longer wants its answer: the engine withdraws its wait (a fetch goes
    /// on only while someone else wants it).
    func withdrawWaiter(_ token: WaiterToken) {
        _ = waitingCallers.take(token)
        cache.cancelWaiter(token)
    }
}
