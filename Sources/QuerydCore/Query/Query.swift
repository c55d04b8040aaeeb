// One cache entry: a key, its state, the subscriptions observing it, and its running fetch.
//
// The object is laid out for the common case of a million cached queries nobody observes: the key
// (inline when short), the state's small fields, the data as encoded bytes, the gc bucket place,
// the shared options box, and one optional reference to everything a query in use adds
// (`QueryActivity`: subscriptions, the running fetch, parsed data, errors). `state` assembles a
// `QueryState` from these parts and stores one back, so the engine reads and writes states whole.

import QuerydJSON

/// A cached query (TanStack's `Query`). Owned by `QueryCache`; reached only on the loop thread.
public final class Query: DeadlineMember, QueryIndexElement {
    public let key: QueryKey
    // The one-byte fields right after the key, in the padding before the next 8-byte field
    // (Swift keeps declaration order). The state's fields are readable without assembling it;
    // they are written through `state` (or `markInvalidated`). Every write of these and of the
    // other state fields below is a single assignment (no access spans a call that could reach
    // the field again), and they are read for every written reply, so accesses are not checked
    // for exclusivity.
    @exclusivity(unchecked) private(set) var status = QueryStatus.pending
    @exclusivity(unchecked) private(set) var fetchStatus = FetchStatus.idle
    @exclusivity(unchecked) private(set) var isInvalidated = false
    /// Whether the query is paged; fixed by its first fetch or subscription.
    var kind = Kind.undecided
    /// Set when the cache drops the query (`QueryCache.forget`); a dropped query never returns to
    /// the cache, so a query found by key and not dropped is still the cache's query of that key.
    /// Read for every remembered `query.get`; its one write is a single assignment, so accesses are
    /// not checked for exclusivity.
    @exclusivity(unchecked) public internal(set) var isForgotten = false
    /// The low 16 bits of the `version` at which the data last changed (see `dataVersion`): two
    /// bytes that fit in the padding after the one-byte fields, where a full version would not fit.
    @exclusivity(unchecked) private var dataVersionLowBits: UInt16 = 1
    /// The data's canonical encoding (nil: no data); owned by this query (see `EncodedBytes`).
    /// Only `storeData` (Query+Data.swift) replaces it, by single assignments; read for every
    /// `query.get` hit, so accesses are not checked for exclusivity.
    @exclusivity(unchecked) var encoded: EncodedBytes?
    @exclusivity(unchecked) private(set) var dataUpdatedAt: Int64 = 0
    @exclusivity(unchecked) private(set) var dataUpdateCount = 0
    /// Grows with every state change; sent to clients so they can order what they receive.
    /// Read for every subscription a publish visits; no access to it spans a call that could reach
    /// it again (every write is a single increment or assignment), so accesses are not checked for
    /// exclusivity.
    @exclusivity(unchecked) public private(set) var version: UInt64 = 1
    /// Where the query waits for garbage collection (see `DeadlineBuckets`; 0: it does not).
    var bucketNumber: UInt32 = 0
    var bucketSlot: UInt32 = 0
    /// The last resolved options and the gcTime, shared by reference with equal queries.
    var sharedOptions: SharedOptions
    /// What only a query in use holds; nil while all of it is empty. The reference is only read
    /// or assigned whole (its contents change through the object), so accesses are not checked for
    /// exclusivity.
    @exclusivity(unchecked) private var activity: QueryActivity?

    /// Whether the query is paged; fixed by its first fetch or subscription.
    enum Kind {
        case undecided, ordinary, infinite
    }

    init(key: QueryKey, options: SharedOptions, now: Int64) {
        self.key = key
        self.sharedOptions = options
        let resolved = options.value
        if let initial = resolved.initialData {
            encoded = EncodedBytes(encoding: initial)
            dataUpdatedAt = resolved.initialDataUpdatedAt ?? now
            status = .success
        }
    }

    deinit {
        encoded?.deallocate()
    }

    // MARK: - State

    /// The query's state, assembled from its parts. Reading it parses the encoded data when the
    /// parsed form is not kept (see `dropParsedDataIfUnused`); writing it bumps `version` and
    /// re-encodes the data only when the data changed (equal data keeps its encoding).
    public internal(set) var state: QueryState {
        get {
            QueryState(
                data: parsedData, isInvalidated: isInvalidated, status: status,
                fetchStatus: fetchStatus, dataUpdatedAt: dataUpdatedAt,
                dataUpdateCount: dataUpdateCount, extras: activity?.extras)
        }
        set { store(newValue) }
        _modify {
            var state = self.state
            defer { store(state) }
            yield &state
        }
    }

    /// The state with `data` nil, assembled without parsing the encoded data.
    var stateWithoutData: QueryState {
        QueryState(
            data: nil, isInvalidated: isInvalidated, status: status, fetchStatus: fetchStatus,
            dataUpdatedAt: dataUpdatedAt, dataUpdateCount: dataUpdateCount, extras: activity?.extras)
    }

    /// The state's rarely-set fields (nil: all at their defaults), read without assembling the state.
    var extras: QueryStateExtras? { activity?.extras }

    /// Stores every part of `state` and bumps the version.
    private func store(_ state: QueryState) {
        storeFields(of: state)
        storeData(state.data)
        settleActivity()
    }

    /// Stores every part of `state` but its data, and bumps the version.
    private func storeFields(of state: QueryState) {
        version += 1
        status = state.status
        fetchStatus = state.fetchStatus
        isInvalidated = state.isInvalidated
        dataUpdatedAt = state.dataUpdatedAt
        dataUpdateCount = state.dataUpdateCount
        if state.extras !== activity?.extras { obtainActivity().extras = state.extras }
    }

    /// Reduces a manual write of data given as its canonical encoding (`bytes`, as
    /// `JSONValue.encoded` writes it; `parsed`, when given, is that data) at `time`: the same
    /// `succeeded` action as a written value, with the bytes stored as they are, so the data is not
    /// parsed or encoded here.
    func reduceManualWrite(encodedData bytes: UnsafeRawBufferPointer, parsed: JSONValue?, at time: Int64) {
        if activity?.extras == nil {
            // What reducing `succeeded(fetched: false)` does to a state without extras, field by
            // field, without assembling the state (most writes; ManualWriteReducerTests checks it
            // against the reducer).
            version += 1
            status = .success
            isInvalidated = false
            dataUpdatedAt = time
            dataUpdateCount += 1
        } else {
            // The `succeeded` action sets every field regardless of the data before.
            var state = stateWithoutData
            state.reduce(.succeeded(data: .null, at: time, fetched: false, pageLinks: nil))
            storeFields(of: state)
        }
        storeData(encoded: bytes, parsed: parsed)
        settleActivity()
    }

    /// The `version` at which the data last changed (meaningful only while the query has data), as
    /// far as 16 bits tell: the latest version up to `version` with those low bits. Exact while
    /// fewer than 65,536 versions passed since the data changed; after that it moves on once every
    /// 65,536 versions without a data change (a "maybe changed" that costs a client a re-read or
    /// an empty patch). Different data never gets the same dataVersion.
    public var dataVersion: UInt64 {
        version - UInt64(UInt16(truncatingIfNeeded: version) &- dataVersionLowBits)
    }

    /// Records that the data changed at the current version.
    func markDataChanged() { dataVersionLowBits = UInt16(truncatingIfNeeded: version) }

    /// Marks a change that is not in the state (a view turning stale), so it gets its own version.
    func bumpVersion() { version += 1 }

    /// Starts above `retired`, the highest version of the queries that left the cache, so a key's
    /// versions never go backwards when its entry is removed and made again.
    func continueVersion(after retired: UInt64) {
        version = max(version, retired + 1)
        // Data that came with the new query (initialData) is new data: no version of an earlier
        // query of this key names it.
        if hasData { markDataChanged() }
    }

    /// Sets `isInvalidated` without assembling the state (only a flag changes). Returns false when
    /// the state was already invalidated.
    func markInvalidated() -> Bool {
        guard !isInvalidated else { return false }
        isInvalidated = true
        version += 1
        return true
    }

    // MARK: - In use

    /// The subscriptions observing this query, in subscription order.
    var subscriptions: [Subscription] {
        get { activity?.subscriptions ?? [] }
        set {
            if newValue.isEmpty, activity == nil { return }
            obtainActivity().subscriptions = newValue
            settleActivity()
        }
        _modify {
            let activity = obtainActivity()
            defer { settleActivity() }
            yield &activity.subscriptions
        }
    }

    /// Whether no subscription observes the query and no fetch of it runs, so garbage collection
    /// may remove it; read without making an array of the subscriptions.
    var isCollectable: Bool {
        guard let activity else { return true }
        return activity.subscriptions.isEmpty && activity.run == nil
    }

    /// Whether a subscription observes the query; read without making an array of them.
    var hasSubscriptions: Bool { activity.map { !$0.subscriptions.isEmpty } ?? false }

    /// The fetch in flight, if any.
    var run: FetchRun? {
        get { activity?.run }
        set {
            if newValue == nil, activity == nil { return }
            obtainActivity().run = newValue
            settleActivity()
        }
    }

    /// The parsed data kept while the query is in use, or nil (`parsedData` then parses).
    var keptParsedData: JSONValue? { activity?.parsedData }

    /// Whether the query holds an activity object (for tests of the per-query footprint).
    var hasActivity: Bool { activity != nil }

    /// The activity object, made if there is none.
    func obtainActivity() -> QueryActivity {
        if let activity { return activity }
        let made = QueryActivity()
        activity = made
        return made
    }

    /// Drops the activity object once everything in it is empty again.
    func settleActivity() {
        if let activity, activity.isIdle { self.activity = nil }
    }

    // MARK: - Options

    /// The resolved options last used to fetch or observe this query; refetches triggered by
    /// invalidation or `queries.refetch` use them. Stored by reference: queries with equal
    /// options share one copy (see `SharedOptions`).
    var lastOptions: ResolvedOptions {
        get { sharedOptions.value }
        set {
            if sharedOptions.value != newValue { sharedOptions = SharedOptions(newValue, gcTime: sharedOptions.gcTime) }
        }
    }

    /// The longest gcTime any user of the query asked for (nil: never collect).
    var gcTime: Int64? {
        get { sharedOptions.gcTime }
        set {
            if sharedOptions.gcTime != newValue { sharedOptions = SharedOptions(sharedOptions.value, gcTime: newValue) }
        }
    }

    /// Keeps the longest gcTime seen; nil means never collect and wins over any number.
    func adoptGcTime(_ candidate: Int64?) {
        guard let current = gcTime else { return }
        guard let candidate else {
            gcTime = nil
            return
        }
        gcTime = max(current, candidate)
    }

    // MARK: - Reading

    /// The stored pages of an infinite query (nil when it has no data or the data is not paged).
    var infinitePages: InfinitePages? {
        guard kind == .infinite, hasData else { return nil }
        let state = self.state
        return state.data.flatMap { InfinitePages(data: $0, links: state.pageLinks) }
    }

    /// Whether at least one enabled subscription observes the query ("active" in filters).
    var isActive: Bool { subscriptions.contains { $0.options.enabled } }

    /// Whether data counts as stale for the given staleTime at `now` (TanStack's `isStaleByTime`).
    func isStale(staleTime: StaleTime, now: Int64) -> Bool {
        guard hasData else { return true }
        switch staleTime {
        case .static: return false
        case .infinity: return isInvalidated
        case .milliseconds(let ms): return isInvalidated || now >= dataUpdatedAt + ms
        }
    }

    /// The query-level staleness used by filters and `query.state`: with subscriptions, stale when
    /// any enabled one sees it stale; without, only missing or invalidated data is stale (time is ignored).
    func isStaleForFilters(now: Int64) -> Bool {
        let subscriptions = self.subscriptions
        if subscriptions.isEmpty { return !hasData || isInvalidated }
        return subscriptions.contains { $0.options.enabled && isStale(staleTime: $0.options.staleTime, now: now) }
    }

    /// Whether refetch triggers (invalidate, `queries.refetch`, reset) skip the query: disabled
    /// (subscribed but none enabled, or unsubscribed and never fetched) or static.
    var isExcludedFromRefetch: Bool {
        let subscriptions = self.subscriptions
        if subscriptions.contains(where: { $0.options.staleTime == .static }) { return true }
        if subscriptions.isEmpty {
            return dataUpdateCount + (activity?.extras?.fields.errorUpdateCount ?? 0) == 0
        }
        return !isActive
    }
}
