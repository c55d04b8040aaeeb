// The errors the client library throws and reports.

public import QuerydRPC

/// Why a client call failed, or why the connection was interrupted.
public enum QueryClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The daemon answered with a JSON-RPC error (for instance -32001 "Fetch failed", whose `data` is the
    /// fetcher's error object).
    case server(RPCError)
    /// The socket could not be opened.
    case connectionFailed(String)
    /// The connection dropped while the call was waiting; the client reconnects by itself.
    case connectionLost(String)
    /// The client is between connections (not yet connected, or reconnecting).
    case notConnected
    /// ``QueryClient/close()`` was called.
    case closed
    /// A key did not encode to a non-empty JSON array.
    case invalidKey(String)
    /// The daemon's answer did not have the expected shape.
    case invalidResponse(String)
    /// A value could not be encoded to, or decoded from, JSON.
    case coding(String)

    /// The server error, when this is one.
    public var rpcError: RPCError? {
        if case .server(let error) = self { return error }
        return nil
    }

    /// The documented code of the server error, when this is one: `catch let error where error.code == .noFetcher`.
    public var code: RPCError.Code? { rpcError?.knownCode }

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .server(let error):
            let data = error.data.map { " \($0)" } ?? ""
            return "server error \(error.code.rawValue): \(error.message)\(data)"
        case .connectionFailed(let reason): return "connection failed: \(reason)"
        case .connectionLost(let reason): return "connection lost: \(reason)"
        case .notConnected: return "not connected"
        case .closed: return "client closed"
        case .invalidKey(let reason): return "invalid key: \(reason)"
        case .invalidResponse(let reason): return "invalid response: \(reason)"
        case .coding(let reason): return "coding error: \(reason)"
        }
    }
}
