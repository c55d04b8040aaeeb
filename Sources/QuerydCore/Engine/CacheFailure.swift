// Failures the cache reports to callers, already in the wire contract's error-object shape.
//
// The core speaks JSON-RPC error objects because fetchers do: a fetcher's error is stored in the
// query state as the `data` of a -32001 error, and every failure a caller can see has a code here.
// The codes themselves are QuerydRPC's `RPCErrorCode` constants, defined once there.

public import QuerydJSON
import QuerydRPC

/// A failed cache operation, with a JSON-RPC error code from the protocol contract.
public struct CacheFailure: Error, Sendable, Equatable {
    public let code: Int
    public let message: String
    public let data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// A failure with `code`, and `code`'s standard message unless `message` is given.
    init(_ code: RPCErrorCode, _ message: String? = nil, data: JSONValue? = nil) {
        self.init(code: code.rawValue, message: message ?? code.standardMessage, data: data)
    }

    /// The error as a JSON-RPC error object.
    public var jsonValue: JSONValue {
        RPCError(RPCErrorCode(rawValue: code), message, data: data).jsonValue
    }

    /// The fetch failed after its retries; `fetcherError` is the last attempt's error object.
    static func fetchFailed(_ fetcherError: JSONValue) -> CacheFailure {
        CacheFailure(.fetchFailed, data: fetcherError)
    }

    /// No fetcher appeared for the key before the caller's timeout (retryable: one may register).
    static func noFetcher(_ key: QueryKey) -> CacheFailure {
        CacheFailure(.noFetcher, data: ["key": key.jsonValue, "retryable": true])
    }

    /// The fetch was cancelled and there was no data to fall back on. Asking again is retryable
    /// unless someone cancelled the fetch on purpose (`reason` "cancelled").
    static func cancelled(_ reason: String) -> CacheFailure {
        CacheFailure(
            .cancelledByServer, data: ["reason": .string(reason), "retryable": .bool(reason != "cancelled")])
    }

    /// Data whose encoding takes `bytes`, more than the `max` a query may hold (so that its replies
    /// fit the outbound limit): `{"bytes": n, "max": m}`.
    public static func dataTooLarge(bytes: Int, max: Int) -> CacheFailure {
        CacheFailure(.limitExceeded, data: ["bytes": .number(JSONNumber(bytes)), "max": .number(JSONNumber(max))])
    }

    /// A compare-and-set write expected another version of the query: `{"key": [...], "version": n}`,
    /// `n` the current version (0 when the key is not cached).
    static func versionConflict(_ key: QueryKey, current: UInt64) -> CacheFailure {
        CacheFailure(.versionConflict, data: ["key": key.jsonValue, "version": .number(JSONNumber(Int(current)))])
    }

    /// An id names no subscription, fetcher or attempt of this connection.
    public static func unknownID(_ kind: String, _ id: Int) -> CacheFailure {
        CacheFailure(.unknownID, "Unknown \(kind)", data: [kind: .number(JSONNumber(id))])
    }

    /// A `select` pointer that does not resolve in the data: the error of the party's view.
    static func selectFailed(_ pointer: String) -> CacheFailure {
        CacheFailure(
            .invalidParams, "Select failed",
            data: ["select": .string(pointer), "reason": "the pointer does not resolve in the data"])
    }
}

/// The error objects the daemon itself records for failed attempts (as if a fetcher or mutator had
/// sent them).
enum AttemptError {
    static let timeout = RPCError(.timeout).jsonValue
    static let fetcherDisconnected = RPCError(.noFetcher, "Fetcher disconnected").jsonValue
    static let mutatorDisconnected = RPCError(.noFetcher, "Mutator disconnected").jsonValue
    static let cancelled = RPCError(.cancelledByServer, "Cancelled").jsonValue
    /// TanStack's "data is undefined": a fetch or mutate answer must carry data (null is data).
    static let dataUndefined = RPCError(.invalidParams, "data is undefined").jsonValue
    /// Fetched data whose encoding (`bytes`) is longer than a query's data may be (`max`, what
    /// `--max-outbound-bytes` leaves for it).
    static func dataTooLarge(bytes: Int, max: Int) -> JSONValue {
        RPCError(
            .limitExceeded,
            data: [
                "limit": "max-outbound-bytes", "bytes": .number(JSONNumber(bytes)),
                "maxDataBytes": .number(JSONNumber(max)),
            ]
        ).jsonValue
    }

    /// No mutator is registered for the key when an attempt should start.
    static func noMutator(_ key: QueryKey) -> JSONValue {
        RPCError(.noFetcher, "No mutator", data: ["key": key.jsonValue]).jsonValue
    }
}
