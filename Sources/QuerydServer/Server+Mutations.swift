// The server's side of the mutation engine: attempts become `mutate` requests to the mutator's
// connection (their answers go back to the engine), withdrawn attempts become `$/cancelRequest`,
// and state changes become coalesced `mutation.changed` pushes.

public import QuerydCore
import QuerydJSON
import QuerydRPC

extension Server: MutationCacheDelegate {
    public func mutations(_ cache: MutationCache, send request: MutateRequest) {
        guard let session = session(for: request.connection) else { return }
        let params: JSONValue = [
            "mutator": .number(JSONNumber(request.mutator.rawValue)), "key": request.key.jsonValue,
            "variables": request.variables, "attempt": .number(JSONNumber(request.attemptNumber)),
        ]
        let attempt = request.attempt
        let id = session.sendRequest(method: "mutate", params: params) { [weak self, weak cache] outcome in
            self?.mutateRequests[attempt] = nil
            switch outcome {
            case .success(let answer): cache?.attemptSucceeded(attempt, answer: answer)
            case .failure(let error): cache?.attemptFailed(attempt, error: error.jsonValue)
            }
        }
        mutateRequests[attempt] = (request.connection, id)
    }

    public func mutations(_ cache: MutationCache, cancel attempt: MutationAttemptID, connection: ConnectionID) {
        guard let (owner, id) = mutateRequests.removeValue(forKey: attempt), owner == connection else { return }
        session(for: connection)?.withdrawRequest(id)
    }

    public func mutations(
        _ cache: MutationCache, push state: MutationState, to subscription: SubscriptionID, connection: ConnectionID
    ) {
        guard let session = session(for: connection) else { return }
        session.outbox.appendMutationPush(state, to: subscription)
        markDirty(session)
    }

    /// A connection closed: the mutation engine forgets its mutators and subscriptions (failing
    /// their attempts in flight), and the requests it was sent are dropped.
    func mutationsConnectionClosed(_ connection: ConnectionID) {
        mutations.connectionClosed(connection)
        mutateRequests = mutateRequests.filter { $0.value.connection != connection }
    }
}
