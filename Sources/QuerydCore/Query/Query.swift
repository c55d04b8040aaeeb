// One cache entry: a key, its state, the subscriptions observing it, and its running fetch.
//
// A query also keeps the encoded bytes of its data, made once per data change, so that cache hits
// (pushes, replies, the `query.get` answer) splice bytes instead of encoding JSON (the read fast path).

import QuerydJSON

/// A cached query (TanStack's `Query`). Owned by `QueryCache`; reached only on the loop thread.
public final class Query: DeadlineMember {
    public let key: QueryKey
    /// The query's state. Reading it rebuilds the parsed data when only its encoded form is kept
    /// (see `dropParsedDataIfUnused`), so every reader sees the data.
    public internal(set) var state: QueryState {
        _read {
            if dataIsEncodedOnly { restoreParsedData() }
            yield storedState
        }
        set {
            if dataIsEncodedOnly { restoreParsedData() }
            let oldValue = storedState
            storedState = newValue
            stateChanged(from: oldValue)
        }
        _modify {
            if dataIsEncodedOnly { restoreParsedData() }
            let oldValue = storedState
            yield &storedState
            stateChanged(from: oldValue)
        }
    }
    /// The storage of `state`; its `data` is nil while `dataIsEncodedOnly`.
    var storedState: QueryState
    /// Grows with every state change; sent to clients so they can order what they receive.
    public private(set) var version: UInt64 = 1
    /// Grows only when the data value itself changes (structural sharing: equal data keeps it).
    public private(set) var dataVersion: UInt64 = 0
    /// Whether the query is paged; fixed by its first fetch or subscription.
    enum Kind {
        case undecided, ordinary, infinite
    }

    /// The subscriptions observing this query, in subscription order.
    var subscriptions: [Subscription] = []
    /// The fetch in flight, if any.
    var run: FetchRun?
    /// The resolved options last used to fetch or observe this query; refetches triggered by
    /// invalidation or `queries.refetch` use them. Stored by reference: queries with equal
    /// options share one copy (see `SharedOptions`).
    var lastOptions: ResolvedOptions {
        get { sharedOptions.value }
        set {
            if sharedOptions.value != newValue { sharedOptions = SharedOptions(newValue) }
        }
    }
    /// The storage of `lastOptions`.
    var sharedOptions: SharedOptions

    /// The encoded data (see `encodedData`); the only copy of the data while `dataIsEncodedOnly`.
    var cachedEncodedData: [UInt8]?

    // The small fields last, in an order that packs them (Swift keeps declaration order).
    /// The longest gcTime any user of the query asked for (nil: never collect).
    var gcTime: Int64? = 0
    /// Set when the cache drops the query (`QueryCache.forget`); a dropped query never returns to
    /// the cache, so a query found by key and not dropped is still the cache's query of that key.
    public internal(set) var isForgotten = false
    var kind = Kind.undecided
    /// Whether the parsed data was dropped and only `cachedEncodedData` holds it.
    var dataIsEncodedOnly = false
    /// The query's place among the queries collected at `bucketDeadline`.
    var bucketSlot: UInt32 = 0
    /// When the query is collected if it stays unused (nil: no collection pending); kept by the
    /// cache's `gcBuckets`.
    var bucketDeadline: Int64? {
        get { storedBucketDeadline == Self.noDeadline ? nil : storedBucketDeadline }
        set { storedBucketDeadline = newValue ?? Self.noDeadline }
    }
    /// `bucketDeadline` without an optional's extra byte, which would cost the object 16 bytes.
    private var storedBucketDeadline = Query.noDeadline
    private static let noDeadline = Int64.min

    init(key: QueryKey, options: SharedOptions, now: Int64) {
        self.key = key
        self.sharedOptions = options
        let resolved = options.value
        self.storedState = QueryState(
            initialData: resolved.initialData, initialDataUpdatedAt: resolved.initialDataUpdatedAt, now: now)
        self.gcTime = resolved.gcTime
    }

    /// Versions and the encoded-data cache follow a state change.
    func stateChanged(from oldValue: QueryState) {
        version += 1
        if storedState.data != oldValue.data {
            dataVersion += 1
            cachedEncodedData = nil
            // Kept for long: drop the spare room the parser left in its objects and arrays.
            storedState.data = storedState.data?.compacted()
        }
    }

    /// Marks a change that is not in the state (a view turning stale), so it gets its own version.
    func bumpVersion() { version += 1 }

    /// Continues the version sequence of the query this one replaces, so it never goes backwards.
    func continueVersion(after previous: Query) { version = max(version, previous.version + 1) }

    /// The encoded `{"data":…,"dataUpdatedAt":…}` answer of `query.get`, or nil when there is no data.
    /// Made on each call from the cached encoded data; `writeGetAnswer(to:)` avoids the copy.
    public var getAnswer: [UInt8]? {
        var bytes: [UInt8] = []
        return writeGetAnswer(to: &bytes) ? bytes : nil
    }

    /// About how many bytes `writeGetAnswer(to:)` appends (nil when the query has no data), for
    /// reserving capacity once.
    public var getAnswerByteCount: Int? { encodedData.map { $0.count + 40 } }

    /// Appends the `query.get` answer `{"data":…,"dataUpdatedAt":…}` to `out`, splicing the cached
    /// encoded data. Returns false (appending nothing) when the query has no data.
    public func writeGetAnswer(to out: inout [UInt8]) -> Bool {
        guard let encoded = encodedData else { return false }
        Query.getAnswerHead.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: encoded)
        Query.getAnswerMember.withUTF8Buffer { out.append(contentsOf: $0) }
        JSONWriter.writeInteger(storedState.dataUpdatedAt, to: &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    // Static strings: their bytes are appended as they are, with no `String` to copy from.
    private static let getAnswerHead: StaticString = #"{"data":"#
    private static let getAnswerMember: StaticString = #","dataUpdatedAt":"#

    /// The encoded data, made once per data change and shared by every push and reply.
    var encodedData: [UInt8]? {
        if let cachedEncodedData { return cachedEncodedData }
        guard let data = state.data else { return nil }
        let bytes = data.encoded
        cachedEncodedData = bytes
        return bytes
    }

    /// The stored pages of an infinite query (nil when it has no data or the data is not paged).
    var infinitePages: InfinitePages? {
        guard kind == .infinite, let data = state.data else { return nil }
        return InfinitePages(data: data, links: state.pageLinks)
    }

    /// Whether at least one enabled subscription observes the query ("active" in filters).
    var isActive: Bool { subscriptions.contains { $0.options.enabled } }

    /// Keeps the longest gcTime seen; nil means never collect and wins over any number.
    func adoptGcTime(_ candidate: Int64?) {
        guard let current = gcTime else { return }
        guard let candidate else {
            gcTime = nil
            return
        }
        gcTime = max(current, candidate)
    }

    /// Whether data counts as stale for the given staleTime at `now` (TanStack's `isStaleByTime`).
    func isStale(staleTime: StaleTime, now: Int64) -> Bool {
        guard hasData else { return true }
        switch staleTime {
        case .static: return false
        case .infinity: return storedState.isInvalidated
        case .milliseconds(let ms): return storedState.isInvalidated || now >= storedState.dataUpdatedAt + ms
        }
    }

    /// The query-level staleness used by filters and `query.state`: with subscriptions, stale when
    /// any enabled one sees it stale; without, only missing or invalidated data is stale (time is ignored).
    func isStaleForFilters(now: Int64) -> Bool {
        if subscriptions.isEmpty { return !hasData || storedState.isInvalidated }
        return subscriptions.contains { $0.options.enabled && isStale(staleTime: $0.options.staleTime, now: now) }
    }

    /// Whether refetch triggers (invalidate, `queries.refetch`, reset) skip the query: disabled
    /// (subscribed but none enabled, or unsubscribed and never fetched) or static.
    var isExcludedFromRefetch: Bool {
        if subscriptions.contains(where: { $0.options.staleTime == .static }) { return true }
        if subscriptions.isEmpty { return storedState.dataUpdateCount + storedState.errorUpdateCount == 0 }
        return !isActive
    }
}
