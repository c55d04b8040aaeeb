// What fetchers and mutators registered by this client receive and return.

public import QuerydJSON
import QuerydRPC

/// A fetcher's answer: the data, and for infinite queries the neighbouring page parameters.
public struct FetchResult: Sendable, Hashable {
    /// The fetched data (one page, for an infinite query).
    public var data: JSONValue
    /// The parameter of the page after this one; nil when there is none.
    public var nextPageParam: JSONValue?
    /// The parameter of the page before this one; nil when there is none.
    public var previousPageParam: JSONValue?

    /// A result from its parts.
    public init(data: JSONValue, nextPageParam: JSONValue? = nil, previousPageParam: JSONValue? = nil) {
        self.data = data
        self.nextPageParam = nextPageParam
        self.previousPageParam = previousPageParam
    }

    /// Plain data (ordinary queries).
    public static func data(_ data: JSONValue) -> FetchResult { FetchResult(data: data) }

    /// One page of an infinite query with its neighbours' parameters.
    public static func page(_ data: JSONValue, next: JSONValue?, previous: JSONValue? = nil) -> FetchResult {
        FetchResult(data: data, nextPageParam: next, previousPageParam: previous)
    }

    /// Data encoded from any Encodable value.
    public static func encoding(
        _ value: some Encodable, next: JSONValue? = nil, previous: JSONValue? = nil
    ) throws(QueryClientError) -> FetchResult {
        FetchResult(data: try JSONCoding.encode(value), nextPageParam: next, previousPageParam: previous)
    }

    var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["data": data]
        if let nextPageParam { members["nextPageParam"] = nextPageParam }
        if let previousPageParam { members["previousPageParam"] = previousPageParam }
        return .object(members)
    }
}

/// Serves `fetch` requests: receives the key and, for infinite queries, the page parameter. Throwing an
/// ``RPCError`` sends that error object; any other error is sent as code -32000 with its description and `data.type`, its type's name.
public typealias FetcherHandler = @Sendable (_ key: JSONValue, _ pageParam: JSONValue?) async throws -> FetchResult

/// Serves `fetch` requests with the whole request, and can stream the data with ``FetchRequest/progress(_:)``.
/// Errors are sent as for ``FetcherHandler``.
public typealias StreamingFetcherHandler = @Sendable (_ request: FetchRequest) async throws -> FetchResult

/// One `fetch` request from the daemon, as a ``StreamingFetcherHandler`` receives it.
public struct FetchRequest: Sendable {
    /// The query key.
    public let key: JSONValue
    /// Infinite queries: the page parameter; nil otherwise.
    public let pageParam: JSONValue?
    /// Infinite queries: `"forward"` or `"backward"`.
    public let direction: String?
    /// The attempt number, from 1.
    public let attempt: Int
    /// The query's `meta` option, when set.
    public let meta: JSONValue?
    private let send: @Sendable (JSONValue) async -> Void

    init(params: JSONValue, key: JSONValue, send: @escaping @Sendable (JSONValue) async -> Void) {
        self.key = key
        pageParam = params["pageParam"]
        direction = params["direction"]?.stringValue
        attempt = params["attempt"]?.intValue ?? 1
        meta = params["meta"]
        self.send = send
    }

    /// Sends `fetch.progress` (TanStack's `streamedQuery`): `data` is the whole data so far and replaces the
    /// query's data at once while the fetch goes on; the handler's result is the final data. Ignored for
    /// infinite queries, and once the request was cancelled or the connection changed.
    public func progress(_ data: JSONValue) async { await send(data) }
}

/// Serves `mutate` requests: receives the mutation key and variables and returns the result data.
public typealias MutatorHandler = @Sendable (_ key: JSONValue, _ variables: JSONValue) async throws -> JSONValue

/// A registration made with ``QueryClient/registerFetcher(_:exact:cancellable:defaults:serve:)`` or
/// ``QueryClient/registerMutator(_:exact:mutate:)``; it survives reconnects (the client registers again).
public struct Registration: Sendable, Hashable {
    /// This client's id for the registration (stable across reconnects, unlike the daemon's).
    public let id: Int
}

/// A query filter: queries whose key starts with `key` (objects match partially).
public struct QueryFilter: Sendable, Hashable {
    /// Which queries by observer activity.
    public enum Activity: String, Sendable, Hashable {
        /// Every matching query.
        case all
        /// Queries with at least one enabled observer.
        case active
        /// Queries without enabled observers.
        case inactive
    }

    /// The key prefix; nil matches every query.
    public var key: JSONValue?
    /// Match the key exactly instead of as a prefix.
    public var exact: Bool
    /// Restrict by activity.
    public var type: Activity
    /// Restrict by staleness.
    public var stale: Bool?
    /// Restrict by fetch status ("idle", "fetching" or "paused"); "fetching" counts as useIsFetching.
    public var fetchStatus: String?

    /// A filter from a typed key prefix.
    public init(
        prefix: (some QueryKey)?, exact: Bool = false, type: Activity = .all, stale: Bool? = nil
    ) throws(QueryClientError) {
        self.key = try prefix.map { (key) throws(QueryClientError) in try KeyEncoding.json(key) }
        self.exact = exact
        self.type = type
        self.stale = stale
    }

    /// A filter matching every query.
    public static let all = QueryFilter(json: nil)

    /// A filter from a key already in JSON form.
    public init(json key: JSONValue?, exact: Bool = false, type: Activity = .all, stale: Bool? = nil) {
        self.key = key
        self.exact = exact
        self.type = type
        self.stale = stale
    }

    /// The filter object sent to the daemon.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["exact": .bool(exact), "type": .string(type.rawValue)]
        if let key { members["key"] = key }
        if let stale { members["stale"] = .bool(stale) }
        if let fetchStatus { members["fetchStatus"] = .string(fetchStatus) }
        return .object(members)
    }
}

/// Options of one mutation run.
public struct MutationOptions: Sendable, Hashable {
    /// Retries of a failed mutation (the daemon's default is none).
    public var retry: RetryConfig?
    /// Filters of queries to invalidate after success.
    public var invalidate: [QueryFilter]
    /// Optimistic writes `(key, data)` applied at once and rolled back on failure.
    public var optimistic: [(key: JSONValue, data: JSONValue)]
    /// Mutations with the same scope run one after another.
    public var scope: String?
    /// When the network state lets an attempt start.
    public var networkMode: NetworkMode?
    /// Any JSON kept with the mutation and echoed as its state's `meta` (protocol 2).
    public var meta: JSONValue?

    /// Mutation options; every argument defaults to "not set".
    public init(
        retry: RetryConfig? = nil, invalidate: [QueryFilter] = [],
        optimistic: [(key: JSONValue, data: JSONValue)] = [], scope: String? = nil, networkMode: NetworkMode? = nil,
        meta: JSONValue? = nil
    ) {
        self.retry = retry
        self.invalidate = invalidate
        self.optimistic = optimistic
        self.scope = scope
        self.networkMode = networkMode
        self.meta = meta
    }

    /// Equal when every option is equal.
    public static func == (lhs: MutationOptions, rhs: MutationOptions) -> Bool {
        lhs.jsonValue == rhs.jsonValue
    }

    /// Hashes the option object.
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonValue) }

    /// The option object sent to the daemon (only the options that are set).
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        retry?.write(into: &members)
        if !invalidate.isEmpty { members["invalidate"] = .array(invalidate.map(\.jsonValue)) }
        if !optimistic.isEmpty {
            members["optimistic"] = .array(optimistic.map { .object(["key": $0.key, "data": $0.data]) })
        }
        if let scope { members["scope"] = .string(scope) }
        if let networkMode { members["networkMode"] = .string(networkMode.rawValue) }
        if let meta { members["meta"] = meta }
        return .object(members)
    }
}

/// The error object a handler's thrown error is sent as.
enum HandlerError {
    static func object(for error: any Error) -> RPCError {
        if let rpc = error as? RPCError { return rpc }
        if let client = error as? QueryClientError, let rpc = client.rpcError { return rpc }
        if error is CancellationError { return RPCError(.requestCancelled) }
        // -32000, JSON-RPC's first implementation-defined server error, as in every queryd client.
        return RPCError(
            RPCErrorCode(rawValue: -32000), String(describing: error),
            data: ["type": .string(String(describing: type(of: error)))])
    }
}
