// The query state object the daemon sends in results and `query.changed` notifications.

public import QuerydJSON
public import QuerydRPC

/// A query's `status`.
public enum QueryStatus: String, Sendable, Hashable {
    /// No data and no finished fetch.
    case pending
    /// The last outcome was data.
    case success
    /// The last fetch failed.
    case error
}

/// A query's `fetchStatus`.
public enum FetchStatus: String, Sendable, Hashable {
    /// No fetch under way.
    case idle
    /// An attempt or a retry delay is under way.
    case fetching
    /// A fetch is wanted but no fetcher is registered (or the daemon is offline).
    case paused
}

/// One query state as the daemon reports it (see protocol/state.md). `raw` keeps the whole object.
public struct QueryState: Sendable, Hashable {
    /// The query key.
    public var key: JSONValue
    /// pending, success or error.
    public var status: QueryStatus
    /// idle, fetching or paused.
    public var fetchStatus: FetchStatus
    /// The data (after `select`, or the placeholder); nil while there is none (JSON `null` is `.null`).
    public var data: JSONValue?
    /// Milliseconds since the epoch of the last successful write; 0 when none.
    public var dataUpdatedAt: Int64
    /// Successful fetches plus writes so far.
    public var dataUpdateCount: Int
    /// The last final error.
    public var error: RPCError?
    /// Milliseconds since the epoch of the last final error; 0 when none.
    public var errorUpdatedAt: Int64
    /// Failed attempts of the current or last fetch.
    public var failureCount: Int
    /// The error of the last failed attempt.
    public var failureReason: RPCError?
    /// Invalidated (or failed) and not yet refreshed.
    public var isInvalidated: Bool
    /// Stale for the subscription's staleTime.
    public var isStale: Bool
    /// `data` is the placeholder, not cached data.
    public var isPlaceholderData: Bool
    /// `isPending && isFetching`.
    public var isLoading: Bool
    /// `fetchStatus == .fetching`.
    public var isFetching: Bool
    /// `isFetching && !isPending`.
    public var isRefetching: Bool
    /// `status == .success`.
    public var isSuccess: Bool
    /// `status == .error`.
    public var isError: Bool
    /// `status == .pending`.
    public var isPending: Bool
    /// `fetchStatus == .paused`.
    public var isPaused: Bool
    /// At least one fetch or write finished.
    public var isFetched: Bool
    /// Grows with every change of the query's state; never restarts for a key while the daemon runs.
    public var version: Int64
    /// The `version` at which the data last changed (protocol 2, subscriptions with `push` `meta` or
    /// `patch`); nil when absent.
    public var dataVersion: Int64?
    /// The daemon's cache generation (protocol 2); nil from a protocol-1 daemon.
    public var epoch: String?
    /// Set by the client on a state that starts over: a push with `resync: true`, or the first state after
    /// a reconnect to a daemon whose cache epoch changed. Discard what was derived from earlier states.
    public var isFreshStart = false
    /// Infinite queries: a next page exists.
    public var hasNextPage: Bool
    /// Infinite queries: a previous page exists.
    public var hasPreviousPage: Bool
    /// Infinite queries: a next page is being fetched.
    public var isFetchingNextPage: Bool
    /// Infinite queries: a previous page is being fetched.
    public var isFetchingPreviousPage: Bool
    /// Infinite queries: the last next-page fetch failed.
    public var isFetchNextPageError: Bool
    /// Infinite queries: the last previous-page fetch failed.
    public var isFetchPreviousPageError: Bool
    /// The state object exactly as received.
    public var raw: JSONValue

    /// Reads a state object; throws when a required member is missing or has the wrong type.
    public init(json: JSONValue) throws(QueryClientError) {
        guard case .object(let members) = json else {
            throw .invalidResponse("a query state must be an object, got \(json.encodedString)")
        }
        func flag(_ name: String) -> Bool { members[name]?.boolValue ?? false }
        func integer(_ name: String) -> Int64 { members[name]?.int64Value ?? 0 }
        func failure(_ name: String) -> RPCError? { members[name].flatMap { RPCError(jsonValue: $0) } }
        guard let key = members["key"],
            let status = members["status"]?.stringValue.flatMap(QueryStatus.init(rawValue:)),
            let fetchStatus = members["fetchStatus"]?.stringValue.flatMap(FetchStatus.init(rawValue:))
        else {
            throw .invalidResponse("a query state needs key, status and fetchStatus: \(json.encodedString)")
        }
        self.key = key
        self.status = status
        self.fetchStatus = fetchStatus
        data = members["data"]
        dataUpdatedAt = integer("dataUpdatedAt")
        dataUpdateCount = Int(integer("dataUpdateCount"))
        error = failure("error")
        errorUpdatedAt = integer("errorUpdatedAt")
        failureCount = Int(integer("failureCount"))
        failureReason = failure("failureReason")
        isInvalidated = flag("isInvalidated")
        isStale = flag("isStale")
        isPlaceholderData = flag("isPlaceholderData")
        isLoading = flag("isLoading")
        isFetching = flag("isFetching")
        isRefetching = flag("isRefetching")
        isSuccess = flag("isSuccess")
        isError = flag("isError")
        isPending = flag("isPending")
        isPaused = flag("isPaused")
        isFetched = flag("isFetched")
        version = integer("version")
        dataVersion = members["dataVersion"]?.int64Value
        epoch = members["epoch"]?.stringValue
        hasNextPage = flag("hasNextPage")
        hasPreviousPage = flag("hasPreviousPage")
        isFetchingNextPage = flag("isFetchingNextPage")
        isFetchingPreviousPage = flag("isFetchingPreviousPage")
        isFetchNextPageError = flag("isFetchNextPageError")
        isFetchPreviousPageError = flag("isFetchPreviousPageError")
        raw = json
    }
}

extension QueryState {
    /// This state with `data` (and the same member in ``raw``) replaced: a patch-mode state rebuilt.
    func replacingData(_ newData: JSONValue) -> QueryState {
        var copy = self
        copy.data = newData
        if case .object(var members) = raw {
            members["data"] = newData
            copy.raw = .object(members)
        }
        return copy
    }
}

/// The cached data of a query as `query.get` returns it.
public struct CachedData: Sendable, Hashable {
    /// The data.
    public var data: JSONValue
    /// Milliseconds since the epoch of the write.
    public var dataUpdatedAt: Int64

    /// Cached data from its parts.
    public init(data: JSONValue, dataUpdatedAt: Int64) {
        self.data = data
        self.dataUpdatedAt = dataUpdatedAt
    }
}
