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
///
/// The fields most queries never change from their defaults (errors, failures, page links) live in
/// a side object allocated on first use (see `QueryStateExtras`), so a query that only ever had
/// data costs no bytes for them.
public struct QueryState: Sendable, Equatable {
    /// The last successful data; `nil` means "no data" (JSON `null` is data).
    public var data: JSONValue?
    // The one-byte fields next to `data`, in the padding before the next 8-byte field.
    /// Set by invalidation and by a final error; cleared by any success.
    public var isInvalidated = false
    public var status: QueryStatus = .pending
    public var fetchStatus: FetchStatus = .idle
    /// When `data` was last written (0 while there is none).
    public var dataUpdatedAt: Int64 = 0
    /// Successful fetches and manual writes so far (initial data does not count).
    public var dataUpdateCount = 0
    /// The rarely-set fields; nil until one of them is set to something other than its default.
    /// (Internal so that `Query` can store them apart from the rest.)
    var extras: QueryStateExtras?

    /// The last final error, as a JSON-RPC error object.
    public var error: JSONValue? {
        get { extras?.fields.error }
        set { update(\.error, newValue) }
    }
    public var errorUpdatedAt: Int64 {
        get { extras?.fields.errorUpdatedAt ?? 0 }
        set { update(\.errorUpdatedAt, newValue) }
    }
    public var errorUpdateCount: Int {
        get { extras?.fields.errorUpdateCount ?? 0 }
        set { update(\.errorUpdateCount, newValue) }
    }
    /// Failed attempts of the current (or last) fetch.
    public var failureCount: Int {
        get { extras?.fields.failureCount ?? 0 }
        set { update(\.failureCount, newValue) }
    }
    public var failureReason: JSONValue? {
        get { extras?.fields.failureReason }
        set { update(\.failureReason, newValue) }
    }
    /// The page direction of the current or last fetch (nil for a whole fetch); TanStack's fetchMeta.
    public var fetchDirection: PageDirection? {
        get { extras?.fields.fetchDirection }
        set { update(\.fetchDirection, newValue) }
    }
    /// For an infinite query: the next/previous page params of each stored page.
    public var pageLinks: [PageLinks]? {
        get { extras?.fields.pageLinks }
        set { update(\.pageLinks, newValue) }
    }

    /// Sets one rarely-set field; a new side object is made only when the value differs from
    /// what is there, so writing a default to a state without one allocates nothing.
    private mutating func update<Value: Equatable>(
        _ field: WritableKeyPath<QueryStateExtras.Fields, Value>, _ value: Value
    ) {
        var fields = extras?.fields ?? QueryStateExtras.Fields()
        if fields[keyPath: field] == value { return }
        fields[keyPath: field] = value
        extras = QueryStateExtras(fields)
    }

    /// Changes several rarely-set fields at once, making at most one new side object.
    private mutating func updateExtras(_ body: (inout QueryStateExtras.Fields) -> Void) {
        var fields = extras?.fields ?? QueryStateExtras.Fields()
        let before = fields
        body(&fields)
        if fields != before { extras = QueryStateExtras(fields) }
    }

    /// Field-by-field equality; a state without a side object equals one whose side object holds
    /// only defaults.
    public static func == (a: QueryState, b: QueryState) -> Bool {
        guard a.dataUpdatedAt == b.dataUpdatedAt, a.dataUpdateCount == b.dataUpdateCount,
            a.isInvalidated == b.isInvalidated, a.status == b.status, a.fetchStatus == b.fetchStatus
        else { return false }
        if a.extras !== b.extras, (a.extras?.fields ?? .init()) != (b.extras?.fields ?? .init()) { return false }
        return a.data == b.data
    }

    /// A state assembled from the parts `Query` stores.
    init(
        data: JSONValue?, isInvalidated: Bool, status: QueryStatus, fetchStatus: FetchStatus, dataUpdatedAt: Int64,
        dataUpdateCount: Int, extras: QueryStateExtras?
    ) {
        self.data = data
        self.isInvalidated = isInvalidated
        self.status = status
        self.fetchStatus = fetchStatus
        self.dataUpdatedAt = dataUpdatedAt
        self.dataUpdateCount = dataUpdateCount
        self.extras = extras
    }

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
        if extras != nil || direction != nil {
            updateExtras {
                $0.fetchDirection = direction
                $0.failureCount = 0
                $0.failureReason = nil
            }
        }
        fetchStatus = paused ? .paused : .fetching
        if data == nil {
            status = .pending
            if extras != nil { error = nil }
        }
    }

    /// An attempt failed and another one will follow.
    mutating func attemptFailed(failures: Int, reason: JSONValue) {
        updateExtras {
            $0.failureCount = failures
            $0.failureReason = reason
        }
    }

    /// Data arrived from a fetcher (`fetched`) or from a manual write.
    mutating func succeeded(data newData: JSONValue, at time: Int64, fetched: Bool, pageLinks links: [PageLinks]? = nil)
    {
        data = newData
        if let links { pageLinks = links }
        dataUpdatedAt = time
        dataUpdateCount += 1
        isInvalidated = false
        status = .success
        if fetched { fetchStatus = .idle }
        if extras != nil {
            updateExtras {
                $0.error = nil
                if fetched {
                    $0.failureCount = 0
                    $0.failureReason = nil
                }
            }
        }
    }

    /// The fetch ended in an error; data is kept.
    mutating func failed(error newError: JSONValue, at time: Int64) {
        updateExtras {
            $0.error = newError
            $0.errorUpdateCount += 1
            $0.errorUpdatedAt = time
            $0.failureCount += 1
            $0.failureReason = newError
        }
        fetchStatus = .idle
        status = .error
        isInvalidated = true
    }
}
