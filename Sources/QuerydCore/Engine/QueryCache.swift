// The cache engine: every query, subscription, fetcher and fetch in the daemon, driven by inputs
// (the server's calls, answers from fetchers, its own timers) and reporting what they decide as
// values in `effects` (see EngineEffect.swift), which the server applies.
//
// It does no I/O and reads time only from its scheduler's clock, so tests drive it with a
// `ManualClock` and see exact state sequences. All of it runs on the event loop's thread.
// The operations live in extensions by concern: fetchers, fetching, subscriptions, publishing,
// queries, filters.

import QuerydJSON

/// The query cache (TanStack's QueryClient + QueryCache), shared by every connection.
public final class QueryCache {
    /// The engine's timers (the mutation cache's too), as events.
    let scheduler: TimerScheduler<EngineTimer>
    /// What the inputs decided, for the server to apply, in order.
    public let effects = EffectBuffer()
    /// Whether `dataChanged` and `queryRemoved` effects are reported (persistence writes behind
    /// when on); off, they cost nothing. Read for every write; set only between inputs (as are
    /// `reportsCacheEvents` and `maxDataBytes`), so accesses are not checked for exclusivity.
    @exclusivity(unchecked) public var reportsDataChanges = false
    /// Whether `cacheEvent` effects are reported (while someone watches the whole cache).
    @exclusivity(unchecked) public var reportsCacheEvents = false
    /// Whether `mutationWrote` / `mutationInvalidated` effects are reported (a cluster publishes
    /// what mutations do to queries); off, they cost nothing.
    public var reportsMutationWrites = false
    /// Fetches started and settled, and their durations (`server.stats`).
    public internal(set) var fetchTotals = FetchTotals()
    /// The mutation cache writing to this cache, which handles its own timers' events.
    weak var mutationCache: MutationCache?

    /// Every cached query, by key and by key prefix. Read for every `query.get`; no access to it
    /// ever spans a call that could reach it again (hashing a key does not), so accesses are not
    /// checked for exclusivity.
    @exclusivity(unchecked) var queries = QueryIndex<Query>()
    var registry = FetcherRegistry() {
        didSet { writeOptionsCache.invalidate() }
    }
    /// `queries.setDefaults` entries.
    var queryDefaults = PrefixDefaults<QueryOptions>() {
        didSet { writeOptionsCache.invalidate() }
    }
    /// The options writes resolve, by the key prefix that decides them (QueryCache+WriteOptions.swift).
    /// Read for every write; no access spans a call that could reach it again (resolving is done
    /// before the result is stored), so accesses are not checked for exclusivity.
    @exclusivity(unchecked) var writeOptionsCache = WriteOptionsCache()
    var subscriptions: [SubscriptionID: Subscription] = [:]
    /// The ids of `subscriptions` by connection, so a closing connection finds its own without a
    /// walk over every subscription's memory.
    var subscriptionIDsByConnection: [ConnectionID: Set<SubscriptionID>] = [:]
    /// Attempts in flight, by id, with the query they fetch (sharded: 200,000 fetches may start
    /// in one turn, and a standard dictionary would rehash them all in one growth).
    var attempts = ShardedDictionary<AttemptID, Query>()
    /// The ids of `attempts` by their fetcher's connection, so a closing connection finds its own.
    var attemptsByConnection: [ConnectionID: ShardedSet<AttemptID>] = [:]
    /// Queries whose fetch waits for a fetcher to register (walked in slices: `StartWaitingSweep`).
    var queriesWaitingForFetcher = ObjectSet<Query>()
    /// Which query each waiting caller waits on.
    var waiterQueries: [WaiterToken: Query] = [:]
    /// Unused queries waiting for their gc deadline, one timer per distinct deadline. Changed by
    /// every write; no access spans a call that could reach it again (the buckets call nothing
    /// outside themselves), so accesses are not checked for exclusivity.
    @exclusivity(unchecked) var gcBuckets = DeadlineBuckets<Query>()
    /// The options box given to the last query created, reused while options stay equal.
    var recentOptions: SharedOptions?
    /// Set by `network.setOnline false`: no attempt starts.
    var offline = false
    /// Back online, the queries' reconnect work waits for the resumed mutations to settle.
    var reconnectAwaitsMutations = false
    /// Queries whose fetch waits for the network to come back.
    var queriesWaitingForNetwork: [QueryKey: Query] = [:]
    /// The random part of jittered retry delays: seeded with 0 on the manual clock, so delays
    /// replay exactly, and at random on the real one.
    var jitter: JitterSource
    /// Connections that said they are not focused.
    var unfocusedConnections = Set<ConnectionID>()
    /// The views subscriptions of the query last published or subscribed to share.
    var sharedViews = ViewShare()
    /// Work continued across loop turns, in the order it began (QueryCache+Sweeps.swift).
    var sweeps: [any Sweep] = []
    /// While a filter sweep holds unretained references to its matches, the queries that leave
    /// the cache, kept alive until it is done (see `FilterSweep`); nil otherwise.
    var sweepGraveyard: [Query]?
    /// While a filter sweep searches for its matches, the queries created since it began, which
    /// it leaves out (see `FilterMatches`); nil otherwise. Their addresses stay theirs meanwhile:
    /// a query that leaves the cache is held in `sweepGraveyard`. Read for every query created; no
    /// access spans a call that could reach it again (inserting hashes an address), so accesses
    /// are not checked for exclusivity.
    @exclusivity(unchecked) var sweepNewcomers: Set<UnsafeMutableRawPointer>?
    var lastSweepID = 0
    /// The most entries a sweep handles per `continueSweeps()` (and a filter call at once):
    /// a slice of a few hundred microseconds.
    public var sweepSliceSize = 512

    /// The timeout (ms) of a `fetch` or `mutate` attempt whose options set none; nil for none.
    public var defaultAttemptTimeout: Int64?

    /// The most bytes a query's encoded data and key may take together (so that every reply and
    /// push of it fits the server's outbound limit): a longer `set` is refused, a longer fetched
    /// answer fails its fetch.
    @exclusivity(unchecked) public var maxDataBytes = Int.max

    /// The cache generation every state names (`epoch`).
    public let epoch: CacheEpoch
    /// The highest version a query that left the cache had: a new query starts above it, so a
    /// key's versions keep growing across `queries.remove` and garbage collection.
    private var retiredVersion: UInt64 = 0

    private var lastSubscriptionID = 0
    private var lastFetcherID = 0
    private var lastAttemptID = 0

    /// A cache whose time and timers run on `clock`, naming `epoch` in its states.
    public init(clock: any CacheClock, epoch: CacheEpoch = .random()) {
        self.scheduler = TimerScheduler(clock: clock)
        self.epoch = epoch
        self.jitter = JitterSource(seed: clock is ManualClock ? 0 : UInt64.random(in: 0...UInt64.max))
    }

    /// The cache clock's time now (ms since the Unix epoch).
    public var now: Int64 { scheduler.clock.now }

    func makeSubscriptionID() -> SubscriptionID {
        lastSubscriptionID += 1
        return SubscriptionID(lastSubscriptionID)
    }

    func makeFetcherID() -> FetcherID {
        lastFetcherID += 1
        return FetcherID(lastFetcherID)
    }

    func makeAttemptID() -> AttemptID {
        lastAttemptID += 1
        return AttemptID(lastAttemptID)
    }

    // MARK: - Queries

    /// The cached query for `key`, if any.
    public func query(_ key: QueryKey) -> Query? { queries[key] }

    /// The options for `key`: `options` over its defaults (see `defaults(for:)`).
    func resolve(_ options: QueryOptions, for key: QueryKey, defaultRetry: Int) -> ResolvedOptions {
        ResolvedOptions(options.layered(over: defaults(for: key)), defaultRetry: defaultRetry)
    }

    /// The query for `key`, created (with `options`' initial data) when absent.
    func obtainQuery(_ key: QueryKey, options: ResolvedOptions) -> Query {
        let (query, added) = queries.element(for: key) { makeQuery(key, options: share(options), now: now) }
        if added {
            report(.queryAdded(query))
        } else {
            adopt(options, by: query)
        }
        return query
    }

    /// The query for `key` as a write at `now` (the clock's time) finds or creates it, with
    /// `writeOptions(for:)`.
    func obtainWrittenQuery(_ key: QueryKey, now: Int64) -> Query {
        let options = writeOptions(for: key)
        let (query, added) = queries.element(for: key) { makeQuery(key, options: options, now: now) }
        if added {
            report(.queryAdded(query))
        } else {
            adopt(options.value, by: query)
        }
        return query
    }

    /// What a cached query takes from the options of a new user: the longer gcTime, and initial
    /// data when it has none.
    private func adopt(_ options: ResolvedOptions, by query: Query) {
        query.adoptGcTime(options.gcTime)
        if !query.hasData, let initial = options.initialData {
            // Initial data applies whenever the query has none yet, even mid-fetch.
            dispatch(.initialData(initial, at: options.initialDataUpdatedAt ?? now), to: query)
        }
    }

    /// A new query for `key` (not cached) with `options`, made at `now` (the clock's time), to add
    /// to the cache.
    private func makeQuery(_ key: QueryKey, options: SharedOptions, now: Int64) -> Query {
        let query = Query(key: key.compacted, options: options, now: now)
        query.continueVersion(after: retiredVersion)
        sweepNewcomers?.insert(Unmanaged.passUnretained(query).toOpaque())
        return query
    }

    /// Drops the query from the cache (its subscriptions, if any, must have been moved first).
    func forget(_ query: Query) {
        guard queries.remove(query) else { return }
        query.isForgotten = true
        holdWhileSwept(query)
        retiredVersion = max(retiredVersion, query.version)
        sharedViews.forget(query)
        if reportsDataChanges { effects.append(.queryRemoved(query.key)) }
        report(.queryRemoved(query.key))
        queriesWaitingForFetcher.remove(query)
        queriesWaitingForNetwork[query.key] = nil
        cancelCollection(query)
    }

    // MARK: - Views

    /// The query as a party with these options sees it (no subscription: `sub` nil).
    func result(
        of query: Query, staleTime: StaleTime, enabled: Bool = true, select: JSONPointer? = nil,
        placeholder: JSONValue? = nil, subscription: Subscription? = nil
    ) -> QueryResult {
        var result = stateView(of: query, isStale: enabled && query.isStale(staleTime: staleTime, now: now))
        if result.status == .pending, let placeholder {
            result.data = placeholder
            result.status = .success
            result.isPlaceholderData = true
        }
        if let select, let data = result.data {
            if let projected = select.resolve(in: data) {
                result.data = projected
                if !result.isPlaceholderData { subscription?.lastSelected = projected }
            } else {
                result.data = subscription?.lastSelected
                result.status = .error
                result.isPlaceholderData = false
                result.error = CacheFailure.selectFailed(select.pointerText).jsonValue
            }
        } else if !result.isPlaceholderData, query.hasData {
            result.encodedData = query.encodedData
        }
        result.infinite = infiniteFlags(of: query, status: result.status)
        return result
    }

    /// The view of a party without select or a shown placeholder: the state as it is, with `isStale`
    /// as that party's staleTime makes it (the view `ViewShare` shares).
    func sharedResult(of query: Query, isStale: Bool) -> QueryResult {
        var result = stateView(of: query, isStale: isStale)
        if query.hasData { result.encodedData = query.encodedData }
        result.infinite = infiniteFlags(of: query, status: result.status)
        return result
    }

    /// The query's state as a view, before placeholder, select, encoded data and paging flags.
    func stateView(of query: Query, isStale: Bool) -> QueryResult {
        let state = query.state
        return stateView(of: query, state: state, data: state.data, isStale: isStale, encodedData: nil)
    }

    /// The view of `state`, the query's state (its `data` not read), showing `data` and carrying
    /// `encodedData`.
    func stateView(of query: Query, state: QueryState, data: JSONValue?, isStale: Bool, encodedData: [UInt8]?)
        -> QueryResult
    {
        QueryResult(
            key: query.key, status: state.status, fetchStatus: state.fetchStatus, data: data,
            dataUpdatedAt: state.dataUpdatedAt, dataUpdateCount: state.dataUpdateCount, error: state.error,
            errorUpdatedAt: state.errorUpdatedAt, errorUpdateCount: state.errorUpdateCount,
            failureCount: state.failureCount, failureReason: state.failureReason,
            isInvalidated: state.isInvalidated, isStale: isStale, isPlaceholderData: false, version: query.version,
            observers: nil, infinite: nil, encodedData: encodedData,
            dataVersion: query.hasData ? query.dataVersion : nil, encodedEpoch: epoch.encoded)
    }

    /// A subscription's current view.
    func result(of subscription: Subscription) -> QueryResult {
        let options = subscription.options
        let placeholder: JSONValue? =
            switch options.placeholderData {
            case .value(let value): value
            case .previous: subscription.previousData
            case nil: nil
            }
        return result(
            of: subscription.query, staleTime: options.staleTime, enabled: options.enabled, select: options.select,
            placeholder: placeholder, subscription: subscription)
    }

    // MARK: - Statistics

    /// Counts for `server.stats`.
    public struct Statistics: Sendable, Equatable {
        public var queries: Int
        public var subscriptions: Int
        public var fetchers: Int
        public var inFlightFetches: Int
        public var pendingWaiters: Int
        public var timers: Int
    }

    public var statistics: Statistics {
        Statistics(
            queries: queries.count, subscriptions: subscriptions.count, fetchers: registry.members.count,
            inFlightFetches: attempts.count, pendingWaiters: waiterQueries.count, timers: scheduler.pendingCount)
    }
}
