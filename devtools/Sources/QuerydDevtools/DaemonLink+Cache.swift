// What the devtools read from and do to the daemon's cache, over DaemonLink. Today these poll (`queries.list` in
// pages, `server.stats`); a cache event stream would replace `snapshot()`.

extension DaemonLink {
    /// Every query's state and the daemon's counters. Each state gains `stale`, TanStack's `query.isStale()` (with
    /// its subscriptions' staleTime), read through the `stale` filter: the `isStale` that `queries.list` reports
    /// is for staleTime 0.
    public func snapshot() async throws -> CacheSnapshot {
        let states = try await listQueries(filter: [:])
        let stale = Set(try await listQueries(filter: ["stale": true]).map { ($0["key"] ?? .null).text })
        return CacheSnapshot(states: states, staleKeys: stale, stats: try await stats())
    }

    /// `queries.list` of the queries `filter` matches, in pages of 1000 (by cursor).
    func listQueries(filter: JSON) async throws -> [JSON] {
        var states: [JSON] = []
        var cursor: JSON = .null
        repeat {
            let page = try await call("queries.list", ["filter": filter, "cursor": cursor, "limit": 1000])
            if case .array(let listed) = page["queries"] { states += listed }
            cursor = page["nextCursor"] ?? .null
        } while cursor != .null
        return states
    }

    /// `server.stats`.
    public func stats() async throws -> JSON {
        try await call("server.stats")
    }

    /// Runs `action` and returns the daemon's result.
    public func perform(_ action: CacheAction) async throws -> JSON {
        let (method, params) = action.request
        return try await call(method, params)
    }
}
