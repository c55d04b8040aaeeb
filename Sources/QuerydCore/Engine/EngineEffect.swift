// What the engine decided the world around it must do, as values: the output half of the seam.
//
// Every input (a method call, an answer from a fetcher or mutator, a timer firing, a connection
// gone) appends its effects, in the order it decided them, to the engine's `EffectBuffer`; the
// server applies them afterwards. The engine never calls out: it does not know sockets, request
// ids or persistence, only connections, attempts and waiter tokens.

public import QuerydJSON

/// One thing the engine asks the world to do.
///
/// The large payloads are `indirect` (boxed), so an effect is a few words: a publish appends one
/// `push` per subscription, and the buffer's elements are copied when applied (measured: with the
/// answers' views inline, every element took the size of a `QueryResult`, and a set pushed to
/// 10,000 subscriptions took 7× as long in the core benchmark).
public enum EngineEffect {
    /// Send a `fetch` request to a fetcher; its answer comes back as `attemptSucceeded` or
    /// `attemptFailed`.
    indirect case sendFetch(FetchRequest)
    /// The answer to this fetch attempt is no longer wanted: send `$/cancelRequest`.
    case cancelFetch(AttemptID, connection: ConnectionID)
    /// A subscription's view changed: push `query.changed`. The view may be shared with other
    /// subscriptions that see the same (its encoded state is made once for all of them).
    case push(QueryView, subscription: SubscriptionID, connection: ConnectionID)
    /// A waiting caller (`query.fetch`, `query.refetch`, …) is answered.
    indirect case answer(WaiterToken, Result<QueryResult, CacheFailure>)
    /// Waiting callers that see the query alike (a herd) are all answered with one outcome.
    indirect case answerAll([WaiterToken], Result<QueryResult, CacheFailure>)
    /// Send a `mutate` request to a mutator.
    indirect case sendMutate(MutateRequest)
    /// The answer to this mutate attempt is no longer wanted: send `$/cancelRequest`.
    case cancelMutate(MutationAttemptID, connection: ConnectionID)
    /// A mutation a subscription covers changed: push `mutation.changed`.
    indirect case pushMutation(MutationState, subscription: SubscriptionID, connection: ConnectionID)
    /// The caller of `mutation.run` is answered: the mutator's data, or the failure.
    indirect case answerMutation(WaiterToken, Result<JSONValue, CacheFailure>)
    /// The query has new successful data (reported only while `QueryCache.reportsDataChanges`).
    case dataChanged(Query)
    /// The query with this key left the cache (reported only while `reportsDataChanges`).
    case queryRemoved(QueryKey)
    /// Something happened that cache watchers see (reported only while `reportsCacheEvents`).
    indirect case cacheEvent(CacheEvent)
    /// The set of paused mutations (what `--persist` keeps of mutations) changed (reported only
    /// while `reportsDataChanges`).
    case pausedMutationsChanged
    /// A mutation wrote the query with this key (an optimistic write, its rollback, a `setData`
    /// result); reported only while `reportsMutationWrites`.
    case mutationWrote(QueryKey)
    /// A mutation invalidated the query with this key (its `invalidate` filters, or a `setData`
    /// that could not be written); reported only while `reportsMutationWrites`.
    case mutationInvalidated(QueryKey)
}

/// One attempt for the server to send to a fetcher.
public struct FetchRequest: Sendable {
    public let attempt: AttemptID
    public let fetcher: FetcherID
    public let connection: ConnectionID
    public let key: QueryKey
    /// 1 for the first attempt of a fetch, 2 for its first retry, and so on.
    public let attemptNumber: Int
    public let meta: JSONValue?
    /// For an infinite query: the page param to fetch and which way the list grows.
    public let page: (param: JSONValue, direction: PageDirection)?

    /// A request; the engine makes its own, a cluster layer makes one for a fetch forwarded to this
    /// node (with an attempt id the engine never uses, so its answer changes nothing here).
    public init(
        attempt: AttemptID, fetcher: FetcherID, connection: ConnectionID, key: QueryKey, attemptNumber: Int,
        meta: JSONValue?, page: (param: JSONValue, direction: PageDirection)?
    ) {
        self.attempt = attempt
        self.fetcher = fetcher
        self.connection = connection
        self.key = key
        self.attemptNumber = attemptNumber
        self.meta = meta
        self.page = page
    }
}

/// One attempt for the server to send to a mutator.
public struct MutateRequest: Sendable {
    public let attempt: MutationAttemptID
    public let mutator: MutatorID
    public let connection: ConnectionID
    public let key: QueryKey
    public let variables: JSONValue
    /// 1 for the first attempt of a mutation, 2 for its first retry, and so on.
    public let attemptNumber: Int

    /// A request; the engine makes its own, a cluster layer makes one for a mutation forwarded to
    /// this node (with an attempt id the engine never uses, so its answer changes nothing here).
    public init(
        attempt: MutationAttemptID, mutator: MutatorID, connection: ConnectionID, key: QueryKey, variables: JSONValue,
        attemptNumber: Int
    ) {
        self.attempt = attempt
        self.mutator = mutator
        self.connection = connection
        self.key = key
        self.variables = variables
        self.attemptNumber = attemptNumber
    }
}
