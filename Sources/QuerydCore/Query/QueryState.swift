// The state of one cached query, and its reducer: TanStack Query's `query.ts` dispatch.
//
// Every change to a query's state is a `QueryAction` reduced here (the engine applies it through
// `QueryCache.dispatch`, which publishes the result), so the rules (what a fetch start, a failed
// attempt, a success or an error does to each field) live in one place.

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
    private mutating func fetchStarted(paused: Bool, direction: PageDirection?) {
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
    private mutating func attemptFailed(failures: Int, reason: JSONValue) {
        updateExtras {
            $0.failureCount = failures
            $0.failureReason = reason
        }
    }

    /// Data arrived from a fetcher (`fetched`) or from a manual write.
    private mutating func succeeded(
        data newData: JSONValue, at time: Int64, fetched: Bool, pageLinks links: [PageLinks]? = nil
    ) {
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
    private mutating func failed(error newError: JSONValue, at time: Int64) {
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

/// A change of one query's state: the actions of TanStack's `query.ts` dispatch.
enum QueryAction {
    /// A fetch starts (paused when no attempt can go out now); `direction` for a page fetch.
    case fetchStarted(paused: Bool, direction: PageDirection?)
    /// The running fetch is out at a fetcher (`fetching`) or waits for one or for the network (`paused`).
    case fetchStatus(FetchStatus)
    /// New data: fetched (the fetch ends), written, or streamed while the fetch goes on.
    case succeeded(data: JSONValue, at: Int64, fetched: Bool, pageLinks: [PageLinks]?)
    /// An attempt failed and the fetch will retry.
    case attemptFailed(failures: Int, reason: JSONValue)
    /// The fetch ended in an error.
    case failed(error: JSONValue, at: Int64)
    /// Initial data arrives for a query that has none.
    case initialData(JSONValue, at: Int64)
    /// The query is marked stale (`queries.invalidate`).
    case invalidated
    /// Persisted data is restored: a success, invalidated so that it revalidates.
    case restored(data: JSONValue, updatedAt: Int64, updateCount: Int)
    /// The state is replaced whole: a cancelled fetch's revert, a rolled-back optimistic write, a
    /// reset.
    case replaced(QueryState)
}

extension QueryState {
    /// Applies `action` (`.invalidated` is applied by `Query.markInvalidated`, which skips the rest
    /// of the state).
    mutating func reduce(_ action: QueryAction) {
        switch action {
        case .fetchStarted(let paused, let direction): fetchStarted(paused: paused, direction: direction)
        case .fetchStatus(let status): fetchStatus = status
        case .succeeded(let data, let time, let fetched, let links):
            succeeded(data: data, at: time, fetched: fetched, pageLinks: links)
        case .attemptFailed(let failures, let reason): attemptFailed(failures: failures, reason: reason)
        case .failed(let error, let time): failed(error: error, at: time)
        case .initialData(let value, let time):
            data = value
            dataUpdatedAt = time
            status = .success
            error = nil
        case .invalidated: isInvalidated = true
        case .restored(let value, let time, let count):
            data = value
            dataUpdatedAt = time
            dataUpdateCount = count
            status = .success
            error = nil
            isInvalidated = true
        case .replaced(let state): self = state
        }
    }
}
