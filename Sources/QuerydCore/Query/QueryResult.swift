// What a subscriber or caller is shown for a query: the state, seen through that party's own
// staleTime, placeholder and select (TanStack's QueryObserverResult), plus the derived flags.

public import QuerydJSON

/// A query's state as one party sees it. Equality ignores `version`, so an unchanged view is
/// never pushed again just because the query's version moved.
public struct QueryResult: Sendable {
    public var key: QueryKey
    public var status: QueryStatus
    public var fetchStatus: FetchStatus
    public var data: JSONValue?
    public var dataUpdatedAt: Int64
    public var dataUpdateCount: Int
    public var error: JSONValue?
    public var errorUpdatedAt: Int64
    public var errorUpdateCount: Int
    public var failureCount: Int
    public var failureReason: JSONValue?
    public var isInvalidated: Bool
    public var isStale: Bool
    public var isPlaceholderData: Bool
    public var version: UInt64
    /// Subscription count, shown by `queries.list` only.
    public var observers: Int?
    /// The encoded `data`, when it is the query's own data (shared by every party; see `Query`).
    var encodedData: [UInt8]?

    public var isPending: Bool { status == .pending }
    public var isSuccess: Bool { status == .success }
    public var isError: Bool { status == .error }
    public var isFetching: Bool { fetchStatus == .fetching }
    public var isPaused: Bool { fetchStatus == .paused }
    public var isLoading: Bool { isPending && isFetching }
    public var isRefetching: Bool { isFetching && !isPending }
    public var isFetched: Bool { dataUpdateCount + errorUpdateCount > 0 }
}

extension QueryResult: Equatable {
    public static func == (a: QueryResult, b: QueryResult) -> Bool {
        a.status == b.status && a.fetchStatus == b.fetchStatus && a.dataUpdatedAt == b.dataUpdatedAt
            && a.dataUpdateCount == b.dataUpdateCount && a.errorUpdatedAt == b.errorUpdatedAt
            && a.errorUpdateCount == b.errorUpdateCount && a.failureCount == b.failureCount
            && a.isInvalidated == b.isInvalidated && a.isStale == b.isStale
            && a.isPlaceholderData == b.isPlaceholderData && a.observers == b.observers && a.key == b.key
            && a.error == b.error && a.failureReason == b.failureReason && a.data == b.data
    }
}
