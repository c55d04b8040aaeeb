// What the mutation engine asks of the world around it. The server implements this: it turns
// attempts into JSON-RPC `mutate` requests, cancellations into `$/cancelRequest`, and state
// changes into `mutation.changed` notifications.

public import QuerydJSON

/// One attempt for the server to send to a mutator.
public struct MutateRequest: Sendable {
    public let attempt: MutationAttemptID
    public let mutator: MutatorID
    public let connection: ConnectionID
    public let key: QueryKey
    public let variables: JSONValue
    /// 1 for the first attempt of a mutation, 2 for its first retry, and so on.
    public let attemptNumber: Int
}

/// Receives the mutation engine's effects, synchronously, on the loop thread.
public protocol MutationCacheDelegate: AnyObject {
    /// Send a `mutate` request; answer with `attemptSucceeded` or `attemptFailed`.
    func mutations(_ cache: MutationCache, send request: MutateRequest)
    /// The answer to this attempt is no longer wanted: send `$/cancelRequest`.
    func mutations(_ cache: MutationCache, cancel attempt: MutationAttemptID, connection: ConnectionID)
    /// A mutation a subscription covers changed: push `mutation.changed`.
    func mutations(
        _ cache: MutationCache, push state: MutationState, to subscription: SubscriptionID, connection: ConnectionID)
}
