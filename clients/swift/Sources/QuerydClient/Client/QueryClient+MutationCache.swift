// The mutation cache and cache snapshots: `mutations.list` (paged), `mutations.clear`,
// `cache.dehydrate` and `cache.hydrate` (protocol 2). Mutation states and snapshots are raw JSON,
// as the daemon sends them.

public import QuerydJSON

extension QueryClient {
    /// One page of `mutations.list` in submission order: pass nil to start, then the previous page's
    /// `nextCursor`; `filter` is a mutation filter object (`{key?, exact?, status?}`, nil for all).
    /// `nextCursor` is nil on the last page.
    public func listMutations(filter: JSONValue? = nil, cursor: String?, limit: Int? = nil)
        async throws(QueryClientError) -> (mutations: [JSONValue], nextCursor: String?)
    {
        var params: [String: JSONValue] = ["cursor": cursor.map(JSONValue.string) ?? .null]
        if let filter { params["filter"] = filter }
        if let limit { params["limit"] = .number(JSONNumber(limit)) }
        let result = try await request("mutations.list", .object(params), binding: nil)
        guard case .array(let mutations)? = result["mutations"] else {
            throw .invalidResponse("mutations.list: \(result.encodedString)")
        }
        return (mutations, result["nextCursor"]?.stringValue)
    }

    /// `mutations.clear`: forgets settled mutations and cancels paused ones; returns how many left.
    @discardableResult
    public func clearMutations() async throws(QueryClientError) -> Int {
        let result = try await request("mutations.clear", [:], binding: nil)
        guard let cleared = result["cleared"]?.intValue else {
            throw .invalidResponse("mutations.clear: \(result.encodedString)")
        }
        return cleared
    }

    /// `cache.dehydrate`: a versioned snapshot `{version, queries, mutations}` of the successful
    /// queries `filter` matches (and pending ones with `includePending`) and of the paused mutations.
    public func dehydrate(_ filter: QueryFilter = .all, includePending: Bool = false) async throws(QueryClientError)
        -> JSONValue
    {
        try await request(
            "cache.dehydrate", ["filter": filter.jsonValue, "includePending": .bool(includePending)], binding: nil)
    }

    /// `cache.hydrate`: merges a snapshot in (newer `dataUpdatedAt` wins; subscribers are notified);
    /// returns how many query entries were written and mutations added.
    @discardableResult
    public func hydrate(_ snapshot: JSONValue) async throws(QueryClientError) -> (queries: Int, mutations: Int) {
        let result = try await request("cache.hydrate", ["snapshot": snapshot], binding: nil)
        guard let queries = result["queries"]?.intValue, let mutations = result["mutations"]?.intValue else {
            throw .invalidResponse("cache.hydrate: \(result.encodedString)")
        }
        return (queries, mutations)
    }
}
