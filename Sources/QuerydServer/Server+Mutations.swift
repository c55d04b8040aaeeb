// The server's side of the mutation engine: attempts become `mutate` requests to the mutator's
// connection and withdrawn attempts `$/cancelRequest` (both through the session, whose
// `OutgoingRequests` maps attempts to requests), and state changes become coalesced
// `mutation.changed` pushes.

public import QuerydCore

extension Server: MutationCacheDelegate {
    public func mutations(_ cache: MutationCache, send request: MutateRequest) {
        session(for: request.connection)?.send(request)
    }

    public func mutations(_ cache: MutationCache, cancel attempt: MutationAttemptID, connection: ConnectionID) {
        session(for: connection)?.cancel(.mutate(attempt))
    }

    public func mutations(
        _ cache: MutationCache, push state: MutationState, to subscription: SubscriptionID, connection: ConnectionID
    ) {
        guard let session = session(for: connection) else { return }
        session.outbox.appendMutationPush(state, to: subscription)
        markDirty(session)
    }
}
