// Query operations: fetch, ensure, prefetch, get, state, set, refetch, cancel, pages and filters.

public import QuerydJSON

extension QueryClient {
    /// `query.fetch`: cached data when fresh, else one deduplicated fetch. A failure after retries throws
    /// ``QueryClientError/server(_:)`` with code -32001 and the fetcher's error as `data`.
    public func fetch(_ key: some QueryKey, options: QueryOptions = QueryOptions()) async throws(QueryClientError)
        -> QueryState
    {
        try await stateCall("query.fetch", keyParams(key, options: options))
    }

    /// `query.ensure`: cached data of any age; fetches only when there is none.
    public func ensure(_ key: some QueryKey, options: QueryOptions = QueryOptions()) async throws(QueryClientError)
        -> QueryState
    {
        try await stateCall("query.ensure", keyParams(key, options: options))
    }

    /// `query.prefetch`: returns at once; the daemon fetches in the background when the data is stale.
    public func prefetch(_ key: some QueryKey, options: QueryOptions = QueryOptions()) async throws(QueryClientError) {
        _ = try await request("query.prefetch", keyParams(key, options: options), binding: nil)
    }

    /// `query.get`: the cached data, never fetching; nil when the query has none.
    public func get(_ key: some QueryKey) async throws(QueryClientError) -> CachedData? {
        let result = try await request("query.get", ["key": try KeyEncoding.json(key)], binding: nil)
        guard let data = result["data"] else { return nil }
        return CachedData(data: data, dataUpdatedAt: result["dataUpdatedAt"]?.int64Value ?? 0)
    }

    /// `query.get` decoded into `type`; nil when the query has no data.
    public func get<Value: Decodable>(_ key: some QueryKey, as type: Value.Type) async throws(QueryClientError)
        -> Value?
    {
        guard let cached = try await get(key) else { return nil }
        return try JSONCoding.decode(type, from: cached.data)
    }

    /// `query.state`: the query's state, or nil when the daemon has no such query.
    public func state(_ key: some QueryKey) async throws(QueryClientError) -> QueryState? {
        let result = try await request("query.state", ["key": try KeyEncoding.json(key)], binding: nil)
        if result.isNull { return nil }
        return try QueryState(json: result)
    }

    /// `query.set` with new data; subscribers are notified.
    @discardableResult
    public func set(_ key: some QueryKey, data: JSONValue) async throws(QueryClientError) -> QueryState {
        try await stateCall("query.set", ["key": try KeyEncoding.json(key), "data": data])
    }

    /// `query.set` with data encoded from any Encodable value.
    @discardableResult
    public func set(_ key: some QueryKey, encoding value: some Encodable) async throws(QueryClientError) -> QueryState {
        try await set(key, data: try JSONCoding.encode(value))
    }

    /// `query.set` with an RFC 7396 merge patch applied to the current data.
    @discardableResult
    public func set(_ key: some QueryKey, mergePatch: JSONValue) async throws(QueryClientError) -> QueryState {
        try await stateCall("query.set", ["key": try KeyEncoding.json(key), "mergePatch": mergePatch])
    }

    /// `query.refetch {key}`: refetches and returns the settled state (a failure is in the state).
    @discardableResult
    public func refetch(_ key: some QueryKey, cancelRefetch: Bool = true) async throws(QueryClientError) -> QueryState {
        try await stateCall("query.refetch", ["key": try KeyEncoding.json(key), "cancelRefetch": .bool(cancelRefetch)])
    }

    /// `query.cancel`: cancels the query's fetch; with `revert`, the state goes back to before it.
    public func cancel(_ key: some QueryKey, revert: Bool = true) async throws(QueryClientError) {
        _ = try await request(
            "query.cancel", ["key": try KeyEncoding.json(key), "revert": .bool(revert)], binding: nil)
    }

    /// `query.fetchNextPage {key}` for an infinite query; returns the settled state.
    @discardableResult
    public func fetchNextPage(_ key: some QueryKey) async throws(QueryClientError) -> QueryState {
        try await stateCall("query.fetchNextPage", ["key": try KeyEncoding.json(key)])
    }

    /// `query.fetchPreviousPage {key}` for an infinite query; returns the settled state.
    @discardableResult
    public func fetchPreviousPage(_ key: some QueryKey) async throws(QueryClientError) -> QueryState {
        try await stateCall("query.fetchPreviousPage", ["key": try KeyEncoding.json(key)])
    }

    /// `queries.invalidate` for every query whose key starts with `prefix`; returns how many matched.
    /// Active queries (with enabled observers) refetch in the background by default.
    @discardableResult
    public func invalidate(
        _ prefix: some QueryKey, exact: Bool = false, refetchType: String = "active"
    ) async throws(QueryClientError) -> Int {
        try await invalidate(QueryFilter(prefix: prefix, exact: exact), refetchType: refetchType)
    }

    /// `queries.invalidate` with a full filter; `refetchType` is "active", "inactive", "all" or "none".
    @discardableResult
    public func invalidate(_ filter: QueryFilter, refetchType: String = "active") async throws(QueryClientError)
        -> Int
    {
        try await matchedCall(
            "queries.invalidate", ["filter": filter.jsonValue, "refetchType": .string(refetchType)])
    }

    /// `queries.refetch`, `queries.cancel`, `queries.remove` or `queries.reset` (pass the method's suffix);
    /// returns how many queries matched.
    @discardableResult
    public func queries(_ action: FilterAction, _ filter: QueryFilter = .all) async throws(QueryClientError) -> Int {
        try await matchedCall("queries." + action.rawValue, ["filter": filter.jsonValue])
    }

    /// `queries.list`: the states of matching queries (ordered by key).
    public func list(_ filter: QueryFilter = .all) async throws(QueryClientError) -> [QueryState] {
        let result = try await request("queries.list", ["filter": filter.jsonValue], binding: nil)
        guard case .array(let items) = result else { throw .invalidResponse("queries.list: \(result.encodedString)") }
        var states: [QueryState] = []
        for item in items { states.append(try QueryState(json: item)) }
        return states
    }

    /// `server.ping`: one round trip.
    public func ping() async throws(QueryClientError) {
        _ = try await request("server.ping", [:], binding: nil)
    }

    // MARK: - Helpers

    func keyParams(_ key: some QueryKey, options: QueryOptions) throws(QueryClientError) -> JSONValue {
        QueryClient.subscribeParams(key: try KeyEncoding.json(key), options: options)
    }

    func stateCall(_ method: String, _ params: JSONValue) async throws(QueryClientError) -> QueryState {
        try QueryState(json: try await request(method, params, binding: nil))
    }

    private func matchedCall(_ method: String, _ params: JSONValue) async throws(QueryClientError) -> Int {
        let result = try await request(method, params, binding: nil)
        guard let matched = result["matched"]?.intValue else {
            throw .invalidResponse("\(method): \(result.encodedString)")
        }
        return matched
    }
}

/// The filter-wide actions besides invalidation.
public enum FilterAction: String, Sendable, Hashable {
    /// `queries.refetch`.
    case refetch
    /// `queries.cancel`.
    case cancel
    /// `queries.remove`.
    case remove
    /// `queries.reset`.
    case reset
}
