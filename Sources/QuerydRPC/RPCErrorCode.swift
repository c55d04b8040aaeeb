// JSON-RPC error codes: the spec's standard codes, LSP's cancellation code and queryd's own.

/// A JSON-RPC error code. The standard codes are in -32768...-32000 (spec §5.1); queryd's
/// server conditions use -32001...-32099 as the wire contract lists them.
public struct RPCErrorCode: Sendable, Hashable, RawRepresentable {
    /// The integer sent as `error.code`.
    public let rawValue: Int

    /// A code from its integer value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// -32700: the line is not valid JSON.
    public static let parseError = RPCErrorCode(rawValue: -32700)
    /// -32600: valid JSON, but not a valid request object (also: a line over the size limit).
    public static let invalidRequest = RPCErrorCode(rawValue: -32600)
    /// -32601: no such method.
    public static let methodNotFound = RPCErrorCode(rawValue: -32601)
    /// -32602: the params do not fit the method.
    public static let invalidParams = RPCErrorCode(rawValue: -32602)
    /// -32603: a failure inside the server.
    public static let internalError = RPCErrorCode(rawValue: -32603)
    /// -32800: the request was cancelled by its sender (`$/cancelRequest`, as in LSP).
    public static let requestCancelled = RPCErrorCode(rawValue: -32800)
    /// -32001: the fetch failed after its retries; `data` holds the fetcher's error.
    public static let fetchFailed = RPCErrorCode(rawValue: -32001)
    /// -32002: no fetcher was registered for the key before the timeout.
    public static let noFetcher = RPCErrorCode(rawValue: -32002)
    /// -32003: cancelled by the server (shutdown, `query.cancel`).
    public static let cancelledByServer = RPCErrorCode(rawValue: -32003)
    /// -32004: a timeout expired.
    public static let timeout = RPCErrorCode(rawValue: -32004)
    /// -32005: an unknown subscription, fetcher or mutator id.
    public static let unknownID = RPCErrorCode(rawValue: -32005)
    /// -32006: a server limit was exceeded.
    public static let limitExceeded = RPCErrorCode(rawValue: -32006)
    /// -32007: the mutation failed; `data` holds the mutator's error.
    public static let mutationFailed = RPCErrorCode(rawValue: -32007)

    /// The short message sent with this code when no more specific one is given.
    public var standardMessage: String {
        switch rawValue {
        case -32700: return "Parse error"
        case -32600: return "Invalid Request"
        case -32601: return "Method not found"
        case -32602: return "Invalid params"
        case -32603: return "Internal error"
        case -32800: return "Request cancelled"
        case -32001: return "Fetch failed"
        case -32002: return "No fetcher"
        case -32003: return "Cancelled by the server"
        case -32004: return "Timeout"
        case -32005: return "Unknown id"
        case -32006: return "Limit exceeded"
        case -32007: return "Mutation failed"
        case -32099 ... -32000: return "Server error"
        default: return "Error"
        }
    }
}

extension RPCErrorCode: CustomStringConvertible {
    /// The code and its standard message, for logs: `-32601 (Method not found)`.
    public var description: String { "\(rawValue) (\(standardMessage))" }
}
