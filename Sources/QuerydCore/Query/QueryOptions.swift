// Query options as a subscriber, caller or fetcher default gives them, before defaults are applied.
//
// Every field is optional so that option sets can be layered: built-in defaults, then each matching
// fetcher's `defaults` in registration order, then the caller's own options (see `layered(over:)`).
// `ResolvedOptions` is the flattened result the engine works with.

public import QuerydJSON

/// How long data stays fresh after it was updated.
public enum StaleTime: Sendable, Equatable {
    /// Fresh for this many milliseconds.
    case milliseconds(Int64)
    /// Never stale by time; invalidation still makes the data stale.
    case infinity
    /// Never stale, not even after invalidation; refetch triggers skip the query.
    case `static`
}

/// When a new subscription refetches data that is already cached.
public enum RefetchOnSubscribe: String, Sendable, Equatable {
    case always, ifStale, never
}

/// Whether an event (focus regained, network back) refetches a subscription's query.
public enum RefetchTrigger: Sendable, Equatable {
    /// Never.
    case never
    /// When the subscription sees the data stale (TanStack's `true`).
    case ifStale
    /// Even when fresh (not for staleTime "static").
    case always
}

/// What a subscription shows while its query has no data yet.
public enum Placeholder: Sendable, Equatable {
    /// This value (never written to the cache).
    case value(JSONValue)
    /// The data of the key the subscription showed before `query.setOptions` switched it.
    case previous
}

/// What a subscription's pushes carry (protocol 2's `options.push`).
public enum PushMode: String, Sendable, Equatable {
    /// The full state, data included (protocol 1).
    case state
    /// The state without data, with `dataVersion`.
    case meta
    /// The state with `dataVersion`; data in full, as a merge patch from the data last sent, or not
    /// at all when it did not change.
    case patch
}

/// Query options with every field optional; see the protocol's `state.md` for meanings and defaults.
public struct QueryOptions: Sendable, Equatable {
    public var enabled: Bool?
    public var staleTime: StaleTime?
    /// Milliseconds, or `nil` inside `.some` for "never collect".
    public var gcTime: Int64??
    public var retry: RetrySetting?
    /// The delay between attempts; absent means TanStack's exponential backoff.
    public var retryDelay: RetryDelay?
    public var refetchOnSubscribe: RefetchOnSubscribe?
    /// Whether a subscribe loads a query whose last fetch failed without data (TanStack's retryOnMount).
    public var retryOnMount: Bool?
    /// When the network state lets an attempt start.
    public var networkMode: NetworkMode?
    public var meta: JSONValue?
    /// Milliseconds an attempt may take, and how long a caller waits for a fetcher to appear.
    public var timeout: Int64?
    public var initialData: JSONValue?
    public var initialDataUpdatedAt: Int64?
    public var placeholderData: Placeholder?
    public var select: JSONPointer?
    /// Makes the query an infinite (paged) query.
    public var infinite: InfiniteOptions?
    public var refetchOnFocus: RefetchTrigger?
    public var refetchOnReconnect: RefetchTrigger?
    /// Poll every this many milliseconds; `.some(nil)` turns polling off.
    public var refetchInterval: Int64??
    public var refetchIntervalInBackground: Bool?
    /// State fields whose change causes a push; nil: any change.
    public var notifyOnChangeProps: [String]?
    /// Names of `events.emit` events that refetch the subscription's query.
    public var refetchOn: [String]?
    /// What the subscription's pushes carry (subscriptions only).
    public var push: PushMode?
    /// Whether the subscription is pushed changes its own connection's `query.set` made.
    public var echo: Bool?

    /// Options with nothing set.
    public init() {}

    /// These options with every unset field taken from `base`.
    public func layered(over base: QueryOptions) -> QueryOptions {
        var merged = base
        if let enabled { merged.enabled = enabled }
        if let staleTime { merged.staleTime = staleTime }
        if let gcTime { merged.gcTime = gcTime }
        if let retry { merged.retry = retry }
        if let retryDelay { merged.retryDelay = retryDelay }
        if let refetchOnSubscribe { merged.refetchOnSubscribe = refetchOnSubscribe }
        if let retryOnMount { merged.retryOnMount = retryOnMount }
        if let networkMode { merged.networkMode = networkMode }
        if let meta { merged.meta = meta }
        if let timeout { merged.timeout = timeout }
        if let initialData { merged.initialData = initialData }
        if let initialDataUpdatedAt { merged.initialDataUpdatedAt = initialDataUpdatedAt }
        if let placeholderData { merged.placeholderData = placeholderData }
        if let select { merged.select = select }
        if let infinite { merged.infinite = infinite }
        if let refetchOnFocus { merged.refetchOnFocus = refetchOnFocus }
        if let refetchOnReconnect { merged.refetchOnReconnect = refetchOnReconnect }
        if let refetchInterval { merged.refetchInterval = refetchInterval }
        if let refetchIntervalInBackground { merged.refetchIntervalInBackground = refetchIntervalInBackground }
        if let notifyOnChangeProps { merged.notifyOnChangeProps = notifyOnChangeProps }
        if let refetchOn { merged.refetchOn = refetchOn }
        if let push { merged.push = push }
        if let echo { merged.echo = echo }
        return merged
    }
}

/// The options the engine acts on: every field decided.
public struct ResolvedOptions: Sendable, Equatable {
    public var enabled: Bool
    public var staleTime: StaleTime
    /// Milliseconds, or nil for "never collect".
    public var gcTime: Int64?
    public var retry: RetrySetting
    public var retryDelay: RetryDelay?
    public var refetchOnSubscribe: RefetchOnSubscribe
    public var retryOnMount: Bool
    public var networkMode: NetworkMode
    public var meta: JSONValue?
    public var timeout: Int64?
    public var initialData: JSONValue?
    public var initialDataUpdatedAt: Int64?
    public var placeholderData: Placeholder?
    public var select: JSONPointer?
    public var infinite: InfiniteOptions?
    public var refetchOnFocus: RefetchTrigger
    public var refetchOnReconnect: RefetchTrigger
    /// Milliseconds between polls, or nil for no polling.
    public var refetchInterval: Int64?
    public var refetchIntervalInBackground: Bool
    public var notifyOnChangeProps: Set<String>?
    public var refetchOn: Set<String>
    public var push: PushMode
    public var echo: Bool

    /// TanStack Query v5's defaults; `retry` is 3 for subscriptions and 0 for imperative fetches.
    init(_ options: QueryOptions, defaultRetry: Int) {
        enabled = options.enabled ?? true
        staleTime = options.staleTime ?? .milliseconds(0)
        gcTime = options.gcTime ?? 300_000
        retry = options.retry ?? .count(defaultRetry)
        retryDelay = options.retryDelay
        refetchOnSubscribe = options.refetchOnSubscribe ?? .ifStale
        retryOnMount = options.retryOnMount ?? true
        networkMode = options.networkMode ?? .online
        meta = options.meta
        timeout = options.timeout
        initialData = options.initialData
        initialDataUpdatedAt = options.initialDataUpdatedAt
        placeholderData = options.placeholderData
        select = options.select
        infinite = options.infinite
        refetchOnFocus = options.refetchOnFocus ?? .ifStale
        refetchOnReconnect = options.refetchOnReconnect ?? (networkMode == .always ? .never : .ifStale)
        refetchInterval = (options.refetchInterval ?? nil).flatMap { $0 > 0 ? $0 : nil }
        refetchIntervalInBackground = options.refetchIntervalInBackground ?? false
        notifyOnChangeProps = options.notifyOnChangeProps.map(Set.init)
        refetchOn = Set(options.refetchOn ?? [])
        push = options.push ?? .state
        echo = options.echo ?? true
    }

    /// Whether `trigger` refetches data with these options, given whether it is stale for them.
    func allows(_ trigger: RefetchTrigger, isStale: Bool) -> Bool {
        switch trigger {
        case .never: return false
        case .ifStale: return isStale
        case .always: return staleTime != .static
        }
    }
}
