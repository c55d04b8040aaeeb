// The three kinds of inbound JSON-RPC message, and the reasons a value is not one.

public import QuerydJSON

/// One decoded JSON-RPC 2.0 message.
public enum RPCMessage: Sendable, Hashable {
    /// A call that expects a response (it has a string or number `id`).
    case request(RPCRequest)
    /// A call without an `id`: it must never be answered.
    case notification(RPCNotification)
    /// The answer to a request this side sent.
    case response(RPCResponse)
}

/// A request: `{"jsonrpc":"2.0","id":...,"method":...,"params"?:...}`.
public struct RPCRequest: Sendable, Hashable {
    /// The id to echo in the response.
    public let id: RPCID
    /// The method name (case-sensitive).
    public let method: String
    /// The params: an object or an array, or nil when absent.
    public let params: JSONValue?

    /// A request from its parts.
    public init(id: RPCID, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// A notification: `{"jsonrpc":"2.0","method":...,"params"?:...}` with no `id` member.
public struct RPCNotification: Sendable, Hashable {
    /// The method name (case-sensitive).
    public let method: String
    /// The params: an object or an array, or nil when absent.
    public let params: JSONValue?

    /// A notification from its parts.
    public init(method: String, params: JSONValue? = nil) {
        self.method = method
        self.params = params
    }
}

/// A response: `{"jsonrpc":"2.0","id":...,"result":...}` or `{..., "error":{...}}`.
public struct RPCResponse: Sendable, Hashable {
    /// The id of the request being answered.
    public let id: RPCID
    /// The result, or the error object.
    public let outcome: Result<JSONValue, RPCError>

    /// A response from its parts.
    public init(id: RPCID, outcome: Result<JSONValue, RPCError>) {
        self.id = id
        self.outcome = outcome
    }
}

/// Why a JSON value is not a valid JSON-RPC message. The reply is -32600 (``error``) with
/// ``id`` (or `null`), except when ``isResponse`` is true: responses are never answered.
public struct RPCInvalid: Error, Sendable, Hashable {
    /// The message's id when it had one of a legal type (echoed in the reply), else nil
    /// (the reply's id is then `null`).
    public let id: RPCID?
    /// A short explanation for `error.data.reason`.
    public let reason: String
    /// True when the value was shaped like a response (no `method`, but `result` or `error`).
    /// A server must not reply to it: two peers answering each other's malformed responses
    /// could loop forever. Its ``id``, when legal, names the request it tried to answer.
    public let isResponse: Bool

    /// An invalid-message description.
    public init(id: RPCID?, reason: String, isResponse: Bool = false) {
        self.id = id
        self.reason = reason
        self.isResponse = isResponse
    }

    /// The -32600 error to reply with: `RPCError.invalidRequest(reason)`.
    public var error: RPCError { .invalidRequest(reason) }
}
