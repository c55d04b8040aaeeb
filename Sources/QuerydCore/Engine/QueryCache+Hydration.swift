// The queries of a cache snapshot (`cache.dehydrate` / `cache.hydrate`): TanStack's
// dehydrateQuery and hydrate rules for queries.
//
// Dehydrate: the successful queries a filter matches (and the pending ones with `includePending`),
// each as `{key, state, dehydratedAt}`; `state` carries every field of the query state that
// TanStack dehydrates (data, dataUpdatedAt, dataUpdateCount, error, errorUpdatedAt,
// errorUpdateCount, failureCount, failureReason, fetchStatus, isInvalidated, status). Options
// (gcTime, staleTime, ...) are not part of it. Infinite queries are left out.
//
// Hydrate (B139, B140):
// - A query not in the cache is created with the snapshot's state, `fetchStatus` forced to idle
//   (and `status` success whenever there is data); dataUpdateCount is kept, so `isFetched` holds.
//   It gets the default gcTime, counted from the hydration.
// - A cached query is overwritten only when the snapshot's `dataUpdatedAt` is newer than its own;
//   it keeps its `fetchStatus` (a running fetch goes on, and a cancel reverts to the hydrated state).
// - Written queries publish to their subscribers and count as new data (persisted with --persist).
// - Data longer than a query may hold (`maxDataBytes`) is not written.

public import QuerydJSON

/// One query entry of a snapshot, read and checked.
public struct DehydratedQuery: Sendable {
    public let key: QueryKey
    let state: QueryState

    static let entryMembers = ["key", "state", "dehydratedAt"]
    static let stateMembers = [
        "data", "dataUpdateCount", "dataUpdatedAt", "error", "errorUpdateCount", "errorUpdatedAt", "failureCount",
        "failureReason", "fetchStatus", "isInvalidated", "status",
    ]

    /// Reads one entry of a snapshot's `queries`; `path` names it in errors.
    public init(json value: JSONValue, path: String) throws(OptionsError) {
        let entry = try SnapshotFields(value, path: path, allowed: Self.entryMembers)
        key = try entry.key()
        _ = try entry.count("dehydratedAt")
        let fields = try SnapshotFields(entry["state"], path: entry.field("state"), allowed: Self.stateMembers)
        var state = QueryState(initialData: nil, initialDataUpdatedAt: nil, now: 0)
        state.data = fields["data"]
        state.dataUpdatedAt = try fields.count("dataUpdatedAt")
        state.dataUpdateCount = Int(try fields.count("dataUpdateCount"))
        state.error = fields.nullable("error")
        state.errorUpdatedAt = try fields.count("errorUpdatedAt")
        state.errorUpdateCount = Int(try fields.count("errorUpdateCount"))
        state.failureCount = Int(try fields.count("failureCount"))
        state.failureReason = fields.nullable("failureReason")
        state.isInvalidated = try fields.bool("isInvalidated", default: false)
        if let text = try fields.string("fetchStatus"), FetchStatus(rawValue: text) == nil {
            throw OptionsError(
                field: fields.field("fetchStatus"), reason: "must be \"idle\", \"fetching\" or \"paused\"")
        }
        let statusText = try fields.string("status") ?? (state.data == nil ? "pending" : "success")
        guard let status = QueryStatus(rawValue: statusText) else {
            throw OptionsError(field: fields.field("status"), reason: "must be \"pending\", \"success\" or \"error\"")
        }
        if status == .success, state.data == nil {
            throw OptionsError(field: fields.field("data"), reason: "required when status is \"success\"")
        }
        // Data is success whatever the status said (TanStack's hydrate); fetchStatus is not restored.
        state.status = state.data == nil ? status : .success
        self.state = state
    }
}

extension QueryCache {
    /// The snapshot entries of the queries `filter` matches that are successful (and, with
    /// `includePending`, pending), in key order; infinite queries are left out.
    public func dehydrateQueries(_ filter: QueryFilter, includePending: Bool) -> [JSONValue] {
        var entries: [JSONValue] = []
        for query in matching(filter) where query.kind != .infinite {
            guard query.status == .success || (includePending && query.status == .pending) else { continue }
            entries.append([
                "key": query.key.jsonValue, "state": Self.dehydrated(query.state),
                "dehydratedAt": .number(JSONNumber(now)),
            ])
            query.dropParsedDataIfUnused()
        }
        return entries
    }

    private static func dehydrated(_ state: QueryState) -> JSONValue {
        var members: [String: JSONValue] = [
            "dataUpdateCount": .number(JSONNumber(state.dataUpdateCount)),
            "dataUpdatedAt": .number(JSONNumber(state.dataUpdatedAt)), "error": state.error ?? .null,
            "errorUpdateCount": .number(JSONNumber(state.errorUpdateCount)),
            "errorUpdatedAt": .number(JSONNumber(state.errorUpdatedAt)),
            "failureCount": .number(JSONNumber(state.failureCount)), "failureReason": state.failureReason ?? .null,
            "fetchStatus": .string(state.fetchStatus.rawValue), "isInvalidated": .bool(state.isInvalidated),
            "status": .string(state.status.rawValue),
        ]
        if let data = state.data { members["data"] = data }
        return .object(members)
    }

    /// Merges one snapshot entry in with the rules above; returns whether it was written.
    @discardableResult
    public func hydrate(_ entry: DehydratedQuery) -> Bool {
        var state = entry.state
        if let existing = queries[entry.key] {
            guard existing.kind != .infinite, existing.dataUpdatedAt < state.dataUpdatedAt else { return false }
            state.fetchStatus = existing.fetchStatus
            guard dispatchWrite(.replaced(state), to: existing) == nil else { return false }
            if let run = existing.run {
                run.revertState = existing.state
                run.revertState.fetchStatus = .idle
            }
            existing.dropParsedDataIfUnused()
            return true
        }
        let query = obtainQuery(entry.key, options: resolve(QueryOptions(), for: entry.key, defaultRetry: 0))
        guard dispatchWrite(.replaced(state), to: query) == nil else {
            forget(query)
            return false
        }
        collectWhenUnused(query, restart: false)
        query.dropParsedDataIfUnused()
        return true
    }
}
