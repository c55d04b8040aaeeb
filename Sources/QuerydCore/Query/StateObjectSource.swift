// What a state object is written from: a party's view (`QueryResult`) or a query's own state just
// after a write (`WrittenState`, read from the query with nothing copied), and the flags every
// state object derives from those fields.

public import QuerydJSON

/// The fields of a state object (see `QueryResult` for their meaning), from which the state
/// object's writer and the derived flags below read.
public protocol StateObjectSource {
    var key: QueryKey { get }
    var status: QueryStatus { get }
    var fetchStatus: FetchStatus { get }
    var dataUpdatedAt: Int64 { get }
    var dataUpdateCount: Int { get }
    var error: JSONValue? { get }
    var errorUpdatedAt: Int64 { get }
    var errorUpdateCount: Int { get }
    var failureCount: Int { get }
    var failureReason: JSONValue? { get }
    var isInvalidated: Bool { get }
    var isStale: Bool { get }
    var isPlaceholderData: Bool { get }
    var version: UInt64 { get }
    var observers: Int? { get }
    var infinite: InfiniteFlags? { get }
    var dataVersion: UInt64? { get }
}

extension StateObjectSource {
    public var isPending: Bool { status == .pending }
    public var isSuccess: Bool { status == .success }
    public var isError: Bool { status == .error }
    public var isFetching: Bool { fetchStatus == .fetching }
    public var isPaused: Bool { fetchStatus == .paused }
    public var isLoading: Bool { isPending && isFetching }
    /// A background refetch (for an infinite query: not a next or previous page fetch).
    public var isRefetching: Bool {
        isFetching && !isPending && !(infinite?.isFetchingNextPage ?? false)
            && !(infinite?.isFetchingPreviousPage ?? false)
    }
    public var isFetched: Bool { dataUpdateCount + errorUpdateCount > 0 }
}
