// What a subscriber or caller is shown for a query: the state, seen through that party's own
// staleTime, placeholder and select (TanStack's QueryObserverResult), plus the derived flags.

public import QuerydJSON

/// A query's state as one party sees it. Equality ignores `version`, so an unchanged view is
/// never pushed again just because the query's version moved.
public struct QueryResult: StateObjectSource, Sendable {
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
    /// The paging flags, for infinite queries only.
    public var infinite: InfiniteFlags?
    /// The encoded `data`, when it is the query's own data (shared by every party; see `Query`).
    var encodedData: [UInt8]?
    /// The length of `data`'s encoding, when it is the query's own (nil otherwise).
    public var encodedDataCount: Int? { encodedData?.count }
    /// The query's `dataVersion` (nil when the query has no data); written only in the `meta` and
    /// `patch` shapes, and, like `version`, left out of equality.
    public var dataVersion: UInt64?
    /// The cache's epoch as a JSON string (`CacheEpoch.encoded`, shared, never encoded per state).
    var encodedEpoch: [UInt8]

    /// The same view without `data` (for a push whose data cannot be sent).
    public var withoutData: QueryResult {
        var copy = self
        copy.data = nil
        copy.encodedData = nil
        return copy
    }
}

extension QueryResult {
    /// The names of the state object's fields, as `notifyOnChangeProps` lists them.
    public static let fieldNames: Set<String> = [
        "key", "status", "fetchStatus", "data", "dataUpdatedAt", "dataUpdateCount", "epoch", "error", "errorUpdatedAt",
        "errorUpdateCount", "failureCount", "failureReason", "isInvalidated", "isStale", "isPlaceholderData",
        "isLoading", "isFetching", "isRefetching", "isSuccess", "isError", "isPending", "isPaused", "isFetched",
        "version", "hasNextPage", "hasPreviousPage", "isFetchingNextPage", "isFetchingPreviousPage",
        "isFetchNextPageError", "isFetchPreviousPageError",
    ]

    /// Whether any of the named fields differs between the two views (the caller compares views
    /// that differ, so `version`, which every new view advances, always counts as changed).
    func differs(from other: QueryResult, in names: Set<String>) -> Bool {
        names.contains { name in
            switch name {
            case "key": return key != other.key
            case "status": return status != other.status
            case "fetchStatus": return fetchStatus != other.fetchStatus
            case "data": return data != other.data
            case "dataUpdatedAt": return dataUpdatedAt != other.dataUpdatedAt
            case "dataUpdateCount": return dataUpdateCount != other.dataUpdateCount
            case "epoch": return encodedEpoch != other.encodedEpoch
            case "error": return error != other.error
            case "errorUpdatedAt": return errorUpdatedAt != other.errorUpdatedAt
            case "errorUpdateCount": return errorUpdateCount != other.errorUpdateCount
            case "failureCount": return failureCount != other.failureCount
            case "failureReason": return failureReason != other.failureReason
            case "isInvalidated": return isInvalidated != other.isInvalidated
            case "isStale": return isStale != other.isStale
            case "isPlaceholderData": return isPlaceholderData != other.isPlaceholderData
            case "isLoading": return isLoading != other.isLoading
            case "isFetching": return isFetching != other.isFetching
            case "isRefetching": return isRefetching != other.isRefetching
            case "isSuccess": return isSuccess != other.isSuccess
            case "isError": return isError != other.isError
            case "isPending": return isPending != other.isPending
            case "isPaused": return isPaused != other.isPaused
            case "isFetched": return isFetched != other.isFetched
            case "hasNextPage": return infinite?.hasNextPage != other.infinite?.hasNextPage
            case "hasPreviousPage": return infinite?.hasPreviousPage != other.infinite?.hasPreviousPage
            case "isFetchingNextPage": return infinite?.isFetchingNextPage != other.infinite?.isFetchingNextPage
            case "isFetchingPreviousPage":
                return infinite?.isFetchingPreviousPage != other.infinite?.isFetchingPreviousPage
            case "isFetchNextPageError": return infinite?.isFetchNextPageError != other.infinite?.isFetchNextPageError
            case "isFetchPreviousPageError":
                return infinite?.isFetchPreviousPageError != other.infinite?.isFetchPreviousPageError
            // Every pushed view has a newer version, so listing it means "notify on any change".
            case "version": return true
            default: return false
            }
        }
    }
}

extension QueryResult: Equatable {
    public static func == (a: QueryResult, b: QueryResult) -> Bool {
        a.status == b.status && a.fetchStatus == b.fetchStatus && a.dataUpdatedAt == b.dataUpdatedAt
            && a.dataUpdateCount == b.dataUpdateCount && a.errorUpdatedAt == b.errorUpdatedAt
            && a.errorUpdateCount == b.errorUpdateCount && a.failureCount == b.failureCount
            && a.isInvalidated == b.isInvalidated && a.isStale == b.isStale
            && a.isPlaceholderData == b.isPlaceholderData && a.observers == b.observers && a.infinite == b.infinite
            && a.key == b.key
            && a.error == b.error && a.failureReason == b.failureReason && a.data == b.data
    }
}
