// The state of one cached query, and the reducer-like transitions TanStack Query's `dispatch` performs.
//
// Every change to a query's state goes through one of the `mutating` functions here, so the rules
// (what a fetch start, a failed attempt, a success or an error does to each field) live in one place.

public import QuerydJSON

/// Whether a query has data, an error, or neither yet.
public enum QueryStatus: String, Sendable {
    case pending, success, error
}

/// Whether a fetch for the query is running, waiting (no fetcher, or retry paused), or not running.
public enum FetchStatus: String, Sendable {
    case idle, fetching, paused
}

/// The cached state of a query (TanStack's `QueryState`). Times are milliseconds since the Unix epoch.
public struct QueryState: Sendable, Equatable {
    /// The last successful data; `nil` means "no data" (JSON `null` is data).
    public var data: JSONValue?
    /// When `data` was last written (0 while there is none).
    public var dataUpdatedAt: Int64 = 0
    /// Successful fetches and manual writes so far (initial data does not count).
    public var dataUpdateCount = 0
    /// The last final error, as a JSON-RPC error object.
    public var error: JSONValue?
    public var errorUpdatedAt: Int64 = 0
    public var errorUpdateCount = 0
    /// Failed attempts of the current (or last) fetch.
    public var failureCount = 0
    public var failureReason: JSONValue?
    /// Set by invalidation and by a final error; cleared by any success.
    public var isInvalidated = false
    public var status: QueryStatus = .pending
    public var fetchStatus: FetchStatus = .idle
    /// The page direction of the current or last fetch (nil for a whole fetch); TanStack's fetchMeta.
    public var fetchDirection: PageDirection?
    /// For an infinite query: the next/previous page params of each stored page.
    public var pageLinks: [PageLinks]?

    /// An empty state, or one seeded with initial data.
    init(initialData: JSONValue?, initialDataUpdatedAt: Int64?, now: Int64) {
        if let initialData {
            data = initialData
            dataUpdatedAt = initialDataUpdatedAt ?? now
            status = .success
        }
    }

    /// A fetch starts: failures reset, and a query without data shows `pending` again.
    mutating func fetchStarted(paused: Bool, direction: PageDirection?) {
        fetchDirection = direction
        failureCount = 0
        failureReason = nil
        fetchStatus = paused ? .paused : .fetching
        if data == nil {
            status = .pending
            error = nil
        }
    }

    /// An attempt failed and another one will follow.
    mutating func attemptFailed(failures: Int, reason: JSONValue) {
        failureCount = failures
        failureReason = reason
    }

    /// Data arrived from a fetcher (`fetched`) or from a manual write.
    mutating func succeeded(data newData: JSONValue, at time: Int64, fetched: Bool, pageLinks links: [PageLinks]? = nil)
    {
        data = newData
        if let links { pageLinks = links }
        dataUpdatedAt = time
        dataUpdateCount += 1
        error = nil
        isInvalidated = false
        status = .success
        if fetched {
            fetchStatus = .idle
            failureCount = 0
            failureReason = nil
        }
    }

    /// The fetch ended in an error; data is kept.
    mutating func failed(error newError: JSONValue, at time: Int64) {
        error = newError
        errorUpdateCount += 1
        errorUpdatedAt = time
        failureCount += 1
        failureReason = newError
        fetchStatus = .idle
        status = .error
        isInvalidated = true
    }
}
