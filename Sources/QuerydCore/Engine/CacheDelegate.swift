// What the cache asks of the world around it. The server implements this: it turns fetch requests
// into JSON-RPC `fetch` requests, cancellations into `$/cancelRequest`, and pushes into
// `query.changed` notifications. The cache never sees a socket or a JSON-RPC id.

public import QuerydJSON

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
}

/// Receives the cache's effects, synchronously, on the loop thread.
public protocol CacheDelegate: AnyObject {
    /// Send a `fetch` request; answer with `attemptSucceeded` or `attemptFailed`.
    func cache(_ cache: QueryCache, send request: FetchRequest)
    /// The answer to this attempt is no longer wanted: send `$/cancelRequest`.
    func cache(_ cache: QueryCache, cancel attempt: AttemptID, connection: ConnectionID)
    /// A subscription's view changed: push `query.changed`.
    func cache(_ cache: QueryCache, push result: QueryResult, to subscription: SubscriptionID, connection: ConnectionID)
    /// A subscription's view changed: push `query.changed`. The view may be shared with other
    /// subscriptions that see the same (keep it; its encoded state is made once for all of them).
    /// By default, pushes `view.result`.
    func cache(_ cache: QueryCache, push view: QueryView, to subscription: SubscriptionID, connection: ConnectionID)
}

extension CacheDelegate {
    public func cache(
        _ cache: QueryCache, push view: QueryView, to subscription: SubscriptionID, connection: ConnectionID
    ) {
        self.cache(cache, push: view.result, to: subscription, connection: connection)
    }
}
