// Query options with Swift names and units (seconds), converted to the daemon's option object.

public import QuerydJSON

// FoundationEssentials where it exists (Linux): full Foundation loads ICU, which costs every program that
// links the client about 6 ms of start-up (measured on `queryd`, release build).
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How often a failed fetch or mutation is retried, and how long to wait between attempts.
public struct RetryConfig: Sendable, Hashable {
    /// Retries after the first failure: nil means retry forever.
    public var maxRetries: Int?
    /// A fixed delay between attempts in seconds; nil keeps the daemon's exponential backoff
    /// (min(1 s * 2^failures, 30 s)).
    public var delay: TimeInterval?

    /// When set, only a failure whose error code is listed is retried (at most 3 times; the daemon's
    /// `retry` list), and `maxRetries` is not sent.
    public var onlyCodes: [Int]?
    /// Exponential backoff (the daemon's `retryDelay` object); used when `delay` is nil.
    public var backoff: RetryBackoff?

    /// A retry policy from its parts.
    public init(
        maxRetries: Int?, delay: TimeInterval? = nil, onlyCodes: [Int]? = nil, backoff: RetryBackoff? = nil
    ) {
        self.maxRetries = maxRetries
        self.delay = delay
        self.onlyCodes = onlyCodes
        self.backoff = backoff
    }

    /// No retries: the first failure is final.
    public static let never = RetryConfig(maxRetries: 0)
    /// Retry forever.
    public static let infinite = RetryConfig(maxRetries: nil)

    /// Up to `count` retries, optionally with a fixed delay in seconds.
    public static func count(_ count: Int, delay: TimeInterval? = nil) -> RetryConfig {
        RetryConfig(maxRetries: count, delay: delay)
    }

    /// Retries only failures whose error code is one of `codes` (at most 3 times).
    public static func onCodes(_ codes: [Int], backoff: RetryBackoff? = nil) -> RetryConfig {
        RetryConfig(maxRetries: 3, onlyCodes: codes, backoff: backoff)
    }

    func write(into members: inout [String: JSONValue]) {
        if let onlyCodes {
            members["retry"] = .array(onlyCodes.map { .number(JSONNumber($0)) })
        } else if let maxRetries {
            members["retry"] = maxRetries == 0 ? false : .number(JSONNumber(maxRetries))
        } else {
            members["retry"] = true
        }
        if let delay {
            members["retryDelay"] = .number(JSONNumber(Milliseconds.from(delay)))
        } else if let backoff {
            members["retryDelay"] = backoff.jsonValue
        }
    }
}

/// Exponential backoff between attempts: after the n-th failure min(base × factor^(n−1), max),
/// less a random part of at most `jitter` (0…1) of it.
public struct RetryBackoff: Sendable, Hashable {
    /// The delay after the first failure, in seconds.
    public var base: TimeInterval
    /// What each further failure multiplies the delay by (1…1000).
    public var factor: Double
    /// The longest delay, in seconds.
    public var max: TimeInterval
    /// The largest fraction of a delay taken off at random (0…1).
    public var jitter: Double

    /// A backoff from its parts.
    public init(base: TimeInterval, factor: Double = 2, max: TimeInterval, jitter: Double = 0) {
        self.base = base
        self.factor = factor
        self.max = max
        self.jitter = jitter
    }

    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "base": .number(JSONNumber(Milliseconds.from(base))), "factor": .number(JSONNumber(factor)),
            "max": .number(JSONNumber(Milliseconds.from(max))),
        ]
        if jitter > 0 { members["jitter"] = .number(JSONNumber(jitter)) }
        return .object(members)
    }
}

/// When the daemon's network state (``QueryClient/setOnline(_:)``) lets a fetch or mutation attempt
/// start (TanStack's `networkMode`).
public enum NetworkMode: String, Sendable, Hashable {
    /// Only while online; offline the attempt waits (the default).
    case online
    /// Whatever the network state (a source that needs no network).
    case always
    /// The first attempt even offline; retries wait while offline.
    case offlineFirst
}

/// When a new observer of a query refetches it (the daemon's `refetchOnSubscribe`).
public enum RefetchOnAppear: String, Sendable, Hashable {
    /// Always refetch when an observer starts (unless staleTime is infinite).
    case always
    /// Refetch when the cached data is stale (the default).
    case ifStale
    /// Never refetch on start; fetch only when there is no data.
    case never
}

/// The page parameters of an infinite query.
public struct InfiniteOptions: Sendable, Hashable {
    /// The parameter of the first page.
    public var initialPageParam: JSONValue
    /// The most pages kept; older ones are dropped from the other end.
    public var maxPages: Int?

    /// Infinite-query options from their parts.
    public init(initialPageParam: JSONValue, maxPages: Int? = nil) {
        self.initialPageParam = initialPageParam
        self.maxPages = maxPages
    }
}

/// How long data stays fresh (TanStack's `staleTime`). A number literal is seconds: `staleTime: 30`.
public enum StaleTime: Sendable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// Fresh for this many seconds after `dataUpdatedAt` (`.seconds(.infinity)` is ``infinity``).
    case seconds(TimeInterval)
    /// TanStack's `Infinity`: never stale by time, but invalidation still makes it stale and refetches it
    /// (wire `"Infinity"`).
    case infinity
    /// TanStack's `"static"`: never stale, not even after invalidation, which does not refetch it.
    case `static`

    /// Seconds from a float literal.
    public init(floatLiteral value: Double) { self = .seconds(value) }
    /// Seconds from an integer literal.
    public init(integerLiteral value: Int) { self = .seconds(TimeInterval(value)) }

    /// The wire form: milliseconds, `"Infinity"` or `"static"`.
    var jsonValue: JSONValue {
        switch self {
        case .seconds(let seconds) where seconds.isInfinite: return "Infinity"
        case .seconds(let seconds): return .number(JSONNumber(Milliseconds.from(seconds)))
        case .infinity: return "Infinity"
        case .static: return "static"
        }
    }
}

/// Whether a trigger (focus regained, daemon back online) refetches a subscription's query.
public enum RefetchTrigger: Sendable, Hashable {
    /// Never (wire `false`).
    case never
    /// When the data is stale for the subscription (wire `true`, the default).
    case ifStale
    /// Even when fresh, but not for `staleTime: .static` (wire `"always"`).
    case always

    var jsonValue: JSONValue {
        switch self {
        case .never: return false
        case .ifStale: return true
        case .always: return "always"
        }
    }
}

/// What each `query.changed` of a subscription carries (protocol 2, `options.push`).
public enum PushMode: String, Sendable, Hashable {
    /// The full state with data (the default, protocol 1 behaviour).
    case state
    /// States without data, with `dataVersion`; read the data with ``QueryClient/get(_:)`` when wanted.
    case meta
    /// Merge patches of the data; the client rebuilds the data, so the stream still yields full states.
    case patch
}

/// Options for one query, in Swift units. Unset (nil) options are not sent, so the daemon's defaults apply
/// (TanStack Query v5's: staleTime 0, gcTime 5 minutes, 3 retries for observers and none for fetch/ensure).
public struct QueryOptions: Sendable, Hashable {
    /// Whether observers fetch automatically.
    public var enabled: Bool?
    /// How long data stays fresh: seconds, ``StaleTime/infinity`` (TanStack's `Infinity`) or
    /// ``StaleTime/static``.
    public var staleTime: StaleTime?
    /// How long an unobserved query stays cached, in seconds; `.infinity` means forever.
    public var gcTime: TimeInterval?
    /// Retries of a failed fetch.
    public var retry: RetryConfig?
    /// Whether a new observer refetches (sent as `refetchOnSubscribe`; TanStack's `refetchOnMount`).
    public var refetchOnAppear: RefetchOnAppear?
    /// With `false`, a new observer does not refetch a query whose last fetch failed without data.
    public var retryOnMount: Bool?
    /// When the network state lets a fetch attempt start.
    public var networkMode: NetworkMode?
    /// Periodic refetch in seconds, stale or not (`refetchInterval`); 0 turns polling off.
    public var refetchInterval: TimeInterval?
    /// Keep polling while this client is unfocused (``QueryClient/setFocused(_:)``).
    public var refetchIntervalInBackground: Bool?
    /// Refetch when this client regains focus (TanStack's `refetchOnWindowFocus`).
    public var refetchOnFocus: RefetchTrigger?
    /// Refetch when the daemon goes back online (``QueryClient/setOnline(_:)``).
    public var refetchOnReconnect: RefetchTrigger?
    /// Names of ``QueryClient/emit(_:)`` events that refetch the query (queryd's own trigger).
    public var refetchOn: [String]?
    /// State fields whose change is pushed (nil: every field, the daemon's `"all"`); `[]` never notifies.
    public var notifyOnChangeProps: [String]?
    /// A JSON Pointer (RFC 6901) into the data; observers see only that part.
    public var select: String?
    /// Data shown while the query has none (not cached); the string `"previous"` keeps the data of the key
    /// a ``QueryObserver`` switched away from (TanStack's `keepPreviousData`).
    public var placeholderData: JSONValue?
    /// Data the query starts with when it has none.
    public var initialData: JSONValue?
    /// When `initialData` was current; nil means now.
    public var initialDataUpdatedAt: Date?
    /// Any JSON, passed to the fetcher with each request.
    public var meta: JSONValue?
    /// Per-attempt timeout in seconds (also how long a caller waits for a fetcher to appear).
    public var timeout: TimeInterval?
    /// Makes the query an infinite (paged) query.
    public var infinite: InfiniteOptions?
    /// What pushes carry (protocol 2): full states, metadata only, or merge patches.
    public var push: PushMode?
    /// With `false`, this client's own ``QueryClient/set(_:data:)`` is not pushed back to the subscription
    /// (protocol 2; the reply has the state already).
    public var echo: Bool?
    /// Option members sent as they are, for options this type does not model or options given as JSON (a
    /// command line's `--options '{"staleTime":60000}'`); a member here replaces the typed option of that name.
    public var additional: [String: JSONValue] = [:]

    /// Options; every argument defaults to "not set".
    public init(
        enabled: Bool? = nil, staleTime: StaleTime? = nil, gcTime: TimeInterval? = nil,
        retry: RetryConfig? = nil, refetchOnAppear: RefetchOnAppear? = nil, refetchInterval: TimeInterval? = nil,
        refetchIntervalInBackground: Bool? = nil, refetchOnFocus: RefetchTrigger? = nil,
        refetchOnReconnect: RefetchTrigger? = nil, refetchOn: [String]? = nil, notifyOnChangeProps: [String]? = nil,
        select: String? = nil, placeholderData: JSONValue? = nil, initialData: JSONValue? = nil,
        initialDataUpdatedAt: Date? = nil, meta: JSONValue? = nil, timeout: TimeInterval? = nil,
        infinite: InfiniteOptions? = nil, push: PushMode? = nil, echo: Bool? = nil
    ) {
        self.enabled = enabled
        self.staleTime = staleTime
        self.gcTime = gcTime
        self.retry = retry
        self.refetchOnAppear = refetchOnAppear
        self.refetchInterval = refetchInterval
        self.refetchIntervalInBackground = refetchIntervalInBackground
        self.refetchOnFocus = refetchOnFocus
        self.refetchOnReconnect = refetchOnReconnect
        self.refetchOn = refetchOn
        self.notifyOnChangeProps = notifyOnChangeProps
        self.select = select
        self.placeholderData = placeholderData
        self.initialData = initialData
        self.initialDataUpdatedAt = initialDataUpdatedAt
        self.meta = meta
        self.timeout = timeout
        self.infinite = infinite
        self.push = push
        self.echo = echo
    }

    /// True when no option is set (the `options` member is then omitted).
    public var isEmpty: Bool { jsonValue == [:] }

    /// The daemon's option object, holding only the options that are set.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        if let enabled { members["enabled"] = .bool(enabled) }
        if let staleTime { members["staleTime"] = staleTime.jsonValue }
        if let gcTime { members["gcTime"] = gcTime.isInfinite ? .null : .number(JSONNumber(Milliseconds.from(gcTime))) }
        retry?.write(into: &members)
        if let refetchOnAppear { members["refetchOnSubscribe"] = .string(refetchOnAppear.rawValue) }
        if let retryOnMount { members["retryOnMount"] = .bool(retryOnMount) }
        if let networkMode { members["networkMode"] = .string(networkMode.rawValue) }
        if let refetchInterval { members["refetchInterval"] = .number(JSONNumber(Milliseconds.from(refetchInterval))) }
        if let refetchIntervalInBackground {
            members["refetchIntervalInBackground"] = .bool(refetchIntervalInBackground)
        }
        if let refetchOnFocus { members["refetchOnFocus"] = refetchOnFocus.jsonValue }
        if let refetchOnReconnect { members["refetchOnReconnect"] = refetchOnReconnect.jsonValue }
        if let refetchOn { members["refetchOn"] = .array(refetchOn.map(JSONValue.string)) }
        if let notifyOnChangeProps {
            members["notifyOnChangeProps"] = .array(notifyOnChangeProps.map(JSONValue.string))
        }
        if let select { members["select"] = .string(select) }
        if let placeholderData { members["placeholderData"] = placeholderData }
        if let initialData { members["initialData"] = initialData }
        if let initialDataUpdatedAt {
            members["initialDataUpdatedAt"] = .number(
                JSONNumber(Milliseconds.from(initialDataUpdatedAt.timeIntervalSince1970)))
        }
        if let meta { members["meta"] = meta }
        if let timeout { members["timeout"] = .number(JSONNumber(Milliseconds.from(timeout))) }
        if let infinite {
            var page: [String: JSONValue] = ["initialPageParam": infinite.initialPageParam]
            if let maxPages = infinite.maxPages { page["maxPages"] = .number(JSONNumber(maxPages)) }
            members["infinite"] = .object(page)
        }
        if let push { members["push"] = .string(push.rawValue) }
        if let echo { members["echo"] = .bool(echo) }
        members.merge(additional) { _, given in given }
        return .object(members)
    }
}

/// Seconds to whole milliseconds.
enum Milliseconds {
    /// `seconds` rounded to the nearest millisecond (negative values become 0).
    static func from(_ seconds: TimeInterval) -> Int {
        Int((max(seconds, 0) * 1000).rounded())
    }
}
