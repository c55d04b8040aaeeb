// JSON-RPC error codes: the spec's standard codes, LSP's cancellation code and queryd's own.

/// A JSON-RPC error code. The standard codes are in -32768...-32000 (spec §5.1); queryd's
/// server conditions use -32001...-32099 as the wire contract lists them. Every code queryd sends
/// is defined here once; the core and the server refer to these constants, never to the integers.
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

    /// -32008: the daemon does not admit the peer's uid (one line with `"id": null`, then it closes).
    public static let permissionDenied = RPCErrorCode(rawValue: -32008)
    /// -32009: a compare-and-set write (`query.set` with `ifVersion`) found another version;
    /// `data` holds the key and its current `version`.
    public static let versionConflict = RPCErrorCode(rawValue: -32009)

    /// The short message sent with this code when no more specific one is given.
    public var standardMessage: String {
        switch self {
        case .parseError: return "Parse error"
        case .invalidRequest: return "Invalid Request"
        case .methodNotFound: return "Method not found"
        case .invalidParams: return "Invalid params"
        case .internalError: return "Internal error"
        case .requestCancelled: return "Request cancelled"
        case .fetchFailed: return "Fetch failed"
        case .noFetcher: return "No fetcher"
        case .cancelledByServer: return "Cancelled by the server"
        case .timeout: return "Timeout"
        case .unknownID: return "Unknown id"
        case .limitExceeded: return "Limit exceeded"
        case .mutationFailed: return "Mutation failed"
        case .permissionDenied: return "Permission denied"
        case .versionConflict: return "Version conflict"
        case _ where Self.serverErrors.contains(rawValue): return "Server error"
        default: return "Error"
        }
    }

    /// JSON-RPC's range of implementation-defined server errors (spec §5.1).
    private static let serverErrors = -32099 ... -32000
}

extension RPCErrorCode: CustomStringConvertible {
    /// The code and its standard message, for logs: `-32601 (Method not found)`.
    public var description: String { "\(rawValue) (\(standardMessage))" }
}
