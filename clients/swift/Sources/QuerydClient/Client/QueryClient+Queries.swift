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
    public func set(_ key: some QueryKey, data: JSONValue, ifVersion: Int? = nil) async throws(QueryClientError)
        -> QueryState
    {
        try await stateCall("query.set", QueryClient.setParams(try KeyEncoding.json(key), "data", data, ifVersion))
    }

    /// `query.set` with data encoded from any Encodable value.
    @discardableResult
    public func set(_ key: some QueryKey, encoding value: some Encodable) async throws(QueryClientError) -> QueryState {
        try await set(key, data: try JSONCoding.encode(value))
    }

    /// `query.set` with an RFC 7396 merge patch applied to the current data.
    @discardableResult
    public func set(_ key: some QueryKey, mergePatch: JSONValue, ifVersion: Int? = nil) async throws(QueryClientError)
        -> QueryState
    {
        try await stateCall(
            "query.set", QueryClient.setParams(try KeyEncoding.json(key), "mergePatch", mergePatch, ifVersion))
    }

    /// `query.set` params; `ifVersion` makes it a compare-and-set (a conflict throws -32009
    /// ``QueryClientError/server(_:)`` whose `data.version` is the current version).
    private static func setParams(_ key: JSONValue, _ member: String, _ value: JSONValue, _ ifVersion: Int?)
        -> JSONValue
    {
        var params: [String: JSONValue] = ["key": key, member: value]
        if let ifVersion { params["ifVersion"] = .number(JSONNumber(ifVersion)) }
        return .object(params)
    }

    /// `query.refetch {key}`: refetches and returns the settled state (a failure is in the state), or nil when
    /// the key is not cached (the daemon then fetches nothing).
    @discardableResult
    public func refetch(_ key: some QueryKey, cancelRefetch: Bool = true) async throws(QueryClientError) -> QueryState?
    {
        let params: JSONValue = ["key": try KeyEncoding.json(key), "cancelRefetch": .bool(cancelRefetch)]
        let result = try await request("query.refetch", params, binding: nil)
        if result.isNull { return nil }
        return try QueryState(json: result)
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
        _ prefix: some QueryKey, exact: Bool = false, refetchType: String = "active", cancelRefetch: Bool = true
    ) async throws(QueryClientError) -> Int {
        try await invalidate(
            QueryFilter(prefix: prefix, exact: exact), refetchType: refetchType, cancelRefetch: cancelRefetch)
    }

    /// `queries.invalidate` with a full filter; `refetchType` is "active", "inactive", "all" or "none";
    /// `cancelRefetch: false` joins fetches in flight instead of replacing them.
    @discardableResult
    public func invalidate(_ filter: QueryFilter, refetchType: String = "active", cancelRefetch: Bool = true)
        async throws(QueryClientError) -> Int
    {
        try await matchedCall(
            "queries.invalidate",
            [
                "filter": filter.jsonValue, "refetchType": .string(refetchType), "cancelRefetch": .bool(cancelRefetch),
            ])
    }

    /// `queries.refetch`, `queries.cancel`, `queries.remove` or `queries.reset` (pass the method's suffix);
    /// returns how many queries matched. `cancelRefetch` (refetch and reset only) false joins fetches in flight.
    @discardableResult
    public func queries(_ action: FilterAction, _ filter: QueryFilter = .all, cancelRefetch: Bool? = nil)
        async throws(QueryClientError) -> Int
    {
        var params: [String: JSONValue] = ["filter": filter.jsonValue]
        if let cancelRefetch { params["cancelRefetch"] = .bool(cancelRefetch) }
        return try await matchedCall("queries." + action.rawValue, .object(params))
    }

    /// `queries.setData` (setQueriesData): writes `data` to every cached match, all or nothing; returns how
    /// many were written.
    @discardableResult
    public func setData(_ filter: QueryFilter, data: JSONValue) async throws(QueryClientError) -> Int {
        try await matchedCall("queries.setData", ["filter": filter.jsonValue, "data": data])
    }

    /// `queries.setData` with an RFC 7396 merge patch applied to each match's own data.
    @discardableResult
    public func setData(_ filter: QueryFilter, mergePatch: JSONValue) async throws(QueryClientError) -> Int {
        try await matchedCall("queries.setData", ["filter": filter.jsonValue, "mergePatch": mergePatch])
    }

    /// `queries.list`: the states of matching queries (ordered by key), in one reply. For many queries use
    /// ``listPages(_:limit:)``, which stays under the daemon's reply size limit.
    public func list(_ filter: QueryFilter = .all) async throws(QueryClientError) -> [QueryState] {
        let result = try await request("queries.list", ["filter": filter.jsonValue], binding: nil)
        return try QueryClient.states(result, of: "queries.list")
    }

    /// One page of `queries.list` (protocol 2): pass nil to start, then the previous page's `nextCursor`;
    /// `limit` caps the page (the daemon's default is 100). `nextCursor` is nil on the last page.
    public func listPage(_ filter: QueryFilter = .all, cursor: String?, limit: Int? = nil)
        async throws(QueryClientError)
        -> (queries: [QueryState], nextCursor: String?)
    {
        var params: [String: JSONValue] = ["filter": filter.jsonValue, "cursor": cursor.map(JSONValue.string) ?? .null]
        if let limit { params["limit"] = .number(JSONNumber(limit)) }
        let result = try await request("queries.list", .object(params), binding: nil)
        guard let page = result["queries"] else { throw .invalidResponse("queries.list: \(result.encodedString)") }
        return (try QueryClient.states(page, of: "queries.list"), result["nextCursor"]?.stringValue)
    }

    /// Every page of `queries.list` in order, fetched as the sequence is iterated.
    public nonisolated func listPages(_ filter: QueryFilter = .all, limit: Int? = nil) -> QueryListPages {
        QueryListPages(client: self, filter: filter, limit: limit)
    }

    /// `server.ping`: one round trip.
    public func ping() async throws(QueryClientError) {
        _ = try await request("server.ping", [:], binding: nil)
    }

    /// `client.setFocused` (TanStack's `focusManager.setFocused`): whether this client's user is looking at
    /// it. While unfocused, polling stops (except `refetchIntervalInBackground`); regaining focus refetches
    /// per `refetchOnFocus`. Only this connection's subscriptions are affected; a reconnect starts focused.
    public func setFocused(_ focused: Bool) async throws(QueryClientError) {
        _ = try await request("client.setFocused", ["focused": .bool(focused)], binding: nil)
    }

    /// `network.setOnline` (TanStack's `onlineManager.setOnline`): daemon-wide. Offline pauses fetches and
    /// mutations; back online resumes them and refetches per `refetchOnReconnect`.
    public func setOnline(_ online: Bool) async throws(QueryClientError) {
        _ = try await request("network.setOnline", ["online": .bool(online)], binding: nil)
    }

    /// `events.emit`: refetches every query with an enabled subscription whose `refetchOn` lists `name`;
    /// returns how many queries that was.
    @discardableResult
    public func emit(_ name: String) async throws(QueryClientError) -> Int {
        try await matchedCall("events.emit", ["name": .string(name)])
    }

    // MARK: - Helpers

    func keyParams(_ key: some QueryKey, options: QueryOptions) throws(QueryClientError) -> JSONValue {
        QueryClient.subscribeParams(key: try KeyEncoding.json(key), options: options)
    }

    func stateCall(_ method: String, _ params: JSONValue) async throws(QueryClientError) -> QueryState {
        try QueryState(json: try await request(method, params, binding: nil))
    }

    static func states(_ value: JSONValue, of method: String) throws(QueryClientError) -> [QueryState] {
        guard case .array(let items) = value else { throw .invalidResponse("\(method): \(value.encodedString)") }
        var states: [QueryState] = []
        for item in items { states.append(try QueryState(json: item)) }
        return states
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

/// The pages of `queries.list`, fetched one by one as iterated (``QueryClient/listPages(_:limit:)``). Each
/// element is one page; iteration throws the ``QueryClientError`` of a failed page.
public struct QueryListPages: AsyncSequence, Sendable {
    /// One page of states.
    public typealias Element = [QueryState]

    let client: QueryClient
    let filter: QueryFilter
    let limit: Int?

    /// An iterator starting at the first page.
    public func makeAsyncIterator() -> Iterator { Iterator(pages: self) }

    /// Fetches the next page on each call.
    public struct Iterator: AsyncIteratorProtocol {
        let pages: QueryListPages
        var cursor: String?
        var isDone = false

        init(pages: QueryListPages) { self.pages = pages }

        /// The next page, or nil after the last one.
        public mutating func next() async throws -> [QueryState]? {
            guard !isDone else { return nil }
            let page = try await pages.client.listPage(pages.filter, cursor: cursor, limit: pages.limit)
            cursor = page.nextCursor
            isDone = page.nextCursor == nil
            return page.queries
        }
    }
}
