// Failures the cache reports to callers, already in the wire contract's error-object shape.
//
// The core speaks JSON-RPC error objects because fetchers do: a fetcher's error is stored in the
// query state as the `data` of a -32001 error, and every failure a caller can see has a code here.

public import QuerydJSON

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

    /// The error as a JSON-RPC error object.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["code": .number(JSONNumber(code)), "message": .string(message)]
        if let data { members["data"] = data }
        return .object(members)
    }

    /// The fetch failed after its retries; `fetcherError` is the last attempt's error object.
    static func fetchFailed(_ fetcherError: JSONValue) -> CacheFailure {
        CacheFailure(code: -32001, message: "Fetch failed", data: fetcherError)
    }

    /// No fetcher appeared for the key before the caller's timeout (retryable: one may register).
    static func noFetcher(_ key: QueryKey) -> CacheFailure {
        CacheFailure(code: -32002, message: "No fetcher", data: ["key": key.jsonValue, "retryable": true])
    }

    /// The fetch was cancelled and there was no data to fall back on. Asking again is retryable
    /// unless someone cancelled the fetch on purpose (`reason` "cancelled").
    static func cancelled(_ reason: String) -> CacheFailure {
        CacheFailure(
            code: -32003, message: "Cancelled by the server",
            data: ["reason": .string(reason), "retryable": .bool(reason != "cancelled")])
    }

    /// Data whose encoding takes `bytes`, more than the `max` a query may hold (so that its replies
    /// fit the outbound limit): `{"bytes": n, "max": m}`.
    public static func dataTooLarge(bytes: Int, max: Int) -> CacheFailure {
        CacheFailure(
            code: dataTooLargeCode, message: "Limit exceeded",
            data: ["bytes": .number(JSONNumber(bytes)), "max": .number(JSONNumber(max))])
    }

    /// The code of `dataTooLarge` (-32006, Limit exceeded).
    public static let dataTooLargeCode = -32006

    /// An id names no subscription, fetcher or attempt of this connection.
    public static func unknownID(_ kind: String, _ id: Int) -> CacheFailure {
        CacheFailure(code: -32005, message: "Unknown \(kind)", data: [kind: .number(JSONNumber(id))])
    }
}

/// The error objects the daemon itself records for failed attempts (as if a fetcher had sent them).
enum AttemptError {
    static let timeout: JSONValue = ["code": -32004, "message": "Timeout"]
    static let fetcherDisconnected: JSONValue = ["code": -32002, "message": "Fetcher disconnected"]
    static let cancelled: JSONValue = ["code": -32003, "message": "Cancelled"]
    /// TanStack's "data is undefined": a fetch answer must carry data (null is data).
    static let dataUndefined: JSONValue = ["code": -32602, "message": "data is undefined"]
    /// Fetched data whose encoding (`bytes`) is longer than a query's data may be (`max`, what
    /// `--max-outbound-bytes` leaves for it).
    static func dataTooLarge(bytes: Int, max: Int) -> JSONValue {
        [
            "code": -32006, "message": "Limit exceeded",
            "data": [
                "limit": "max-outbound-bytes", "bytes": .number(JSONNumber(bytes)),
                "maxDataBytes": .number(JSONNumber(max)),
            ],
        ]
    }
}
