// Query options with Swift names and units (seconds), converted to the daemon's option object.

public import Foundation
public import QuerydJSON

/// How often a failed fetch or mutation is retried, and how long to wait between attempts.
public struct RetryConfig: Sendable, Hashable {
    /// Retries after the first failure: nil means retry forever.
    public var maxRetries: Int?
    /// A fixed delay between attempts in seconds; nil keeps the daemon's exponential backoff
    /// (min(1 s * 2^failures, 30 s)).
    public var delay: TimeInterval?

    /// A retry policy from its parts.
    public init(maxRetries: Int?, delay: TimeInterval? = nil) {
        self.maxRetries = maxRetries
        self.delay = delay
    }

    /// No retries: the first failure is final.
    public static let never = RetryConfig(maxRetries: 0)
    /// Retry forever.
    public static let infinite = RetryConfig(maxRetries: nil)

    /// Up to `count` retries, optionally with a fixed delay in seconds.
    public static func count(_ count: Int, delay: TimeInterval? = nil) -> RetryConfig {
        RetryConfig(maxRetries: count, delay: delay)
    }

    func write(into members: inout [String: JSONValue]) {
        if let maxRetries {
            members["retry"] = maxRetries == 0 ? false : .number(JSONNumber(maxRetries))
        } else {
            members["retry"] = true
        }
        if let delay { members["retryDelay"] = .number(JSONNumber(Milliseconds.from(delay))) }
    }
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

/// Options for one query, in Swift units. Unset (nil) options are not sent, so the daemon's defaults apply
/// (TanStack Query v5's: staleTime 0, gcTime 5 minutes, 3 retries for observers and none for fetch/ensure).
public struct QueryOptions: Sendable, Hashable {
    /// Whether observers fetch automatically.
    public var enabled: Bool?
    /// How long data stays fresh, in seconds; `.infinity` means never stale (the daemon's `"static"`).
    public var staleTime: TimeInterval?
    /// How long an unobserved query stays cached, in seconds; `.infinity` means forever.
    public var gcTime: TimeInterval?
    /// Retries of a failed fetch.
    public var retry: RetryConfig?
    /// Whether a new observer refetches (sent as `refetchOnSubscribe`).
    public var refetchOnAppear: RefetchOnAppear?
    /// Periodic refetch in seconds. Needs daemon support for `refetchInterval`: this daemon version
    /// rejects the option (-32602), so set it only against a daemon that lists it.
    public var refetchInterval: TimeInterval?
    /// A JSON Pointer (RFC 6901) into the data; observers see only that part.
    public var select: String?
    /// Data shown while the query has none (not cached).
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

    /// Options; every argument defaults to "not set".
    public init(
        enabled: Bool? = nil, staleTime: TimeInterval? = nil, gcTime: TimeInterval? = nil,
        retry: RetryConfig? = nil, refetchOnAppear: RefetchOnAppear? = nil, refetchInterval: TimeInterval? = nil,
        select: String? = nil, placeholderData: JSONValue? = nil, initialData: JSONValue? = nil,
        initialDataUpdatedAt: Date? = nil, meta: JSONValue? = nil, timeout: TimeInterval? = nil,
        infinite: InfiniteOptions? = nil
    ) {
        self.enabled = enabled
        self.staleTime = staleTime
        self.gcTime = gcTime
        self.retry = retry
        self.refetchOnAppear = refetchOnAppear
        self.refetchInterval = refetchInterval
        self.select = select
        self.placeholderData = placeholderData
        self.initialData = initialData
        self.initialDataUpdatedAt = initialDataUpdatedAt
        self.meta = meta
        self.timeout = timeout
        self.infinite = infinite
    }

    /// True when no option is set (the `options` member is then omitted).
    public var isEmpty: Bool { jsonValue == [:] }

    /// The daemon's option object, holding only the options that are set.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        if let enabled { members["enabled"] = .bool(enabled) }
        if let staleTime {
            members["staleTime"] = staleTime.isInfinite ? "static" : .number(JSONNumber(Milliseconds.from(staleTime)))
        }
        if let gcTime { members["gcTime"] = gcTime.isInfinite ? .null : .number(JSONNumber(Milliseconds.from(gcTime))) }
        retry?.write(into: &members)
        if let refetchOnAppear { members["refetchOnSubscribe"] = .string(refetchOnAppear.rawValue) }
        if let refetchInterval { members["refetchInterval"] = .number(JSONNumber(Milliseconds.from(refetchInterval))) }
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
