// Why a call through DaemonLink failed.

/// A failed call to the daemon.
public enum DaemonLinkError: Error, Sendable, CustomStringConvertible {
    /// The socket could not be opened.
    case unreachable(path: String, reason: String)
    /// The connection ended before the reply.
    case connectionLost
    /// The daemon answered with a JSON-RPC error.
    case rpc(code: Int64, message: String, data: JSON?)

    public var description: String {
        switch self {
        case .unreachable(let path, let reason): "cannot connect to queryd at \(path): \(reason)"
        case .connectionLost: "the connection to queryd ended"
        case .rpc(let code, let message, let data):
            "queryd answered \(code) \(message)" + (data.map { " \($0.text)" } ?? "")
        }
    }
}
