// The JSON-RPC error object ({code, message, data?}) and the constructors queryd replies with.

public import QuerydJSON

/// A JSON-RPC error object. As a Swift `Error` it is what handlers throw to answer a request
/// with an error response.
public struct RPCError: Error, Sendable, Hashable {
    /// The error code.
    public var code: RPCErrorCode
    /// A short human-readable sentence.
    public var message: String
    /// Extra detail defined by the server (always encoded as JSON, never spliced raw).
    public var data: JSONValue?

    /// An error with `code`'s standard message unless `message` is given.
    public init(_ code: RPCErrorCode, _ message: String? = nil, data: JSONValue? = nil) {
        self.code = code
        self.message = message ?? code.standardMessage
        self.data = data
    }

    /// The error as a JSON object `{"code", "message", "data"?}`.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "code": .number(JSONNumber(code.rawValue)),
            "message": .string(message),
        ]
        if let data { members["data"] = data }
        return .object(members)
    }

    /// Reads an error object: `code` must be an integer and `message` a string; `data` is
    /// optional (an explicit `null` is kept as `.null`). Other members are ignored.
    public init?(jsonValue: JSONValue) {
        guard case .object(let members) = jsonValue,
            case .number(let number)? = members["code"], let code = number.intValue,
            case .string(let message)? = members["message"]
        else { return nil }
        self.init(RPCErrorCode(rawValue: code), message, data: members["data"])
    }

    /// Appends the error object's compact JSON text to `out`, members in the order
    /// `code`, `message`, `data`.
    public func write(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"code":"#.utf8)
        JSONWriter.writeNumber(JSONNumber(code.rawValue), to: &out)
        out.append(contentsOf: #","message":"#.utf8)
        JSONWriter.writeString(message, to: &out)
        if let data {
            out.append(contentsOf: #","data":"#.utf8)
            data.write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}

extension RPCError {
    /// The hint sent with every parse error: most of them are pretty-printed JSON pasted by hand.
    public static let parseHint = "send one JSON-RPC message per line"

    /// The -32700 reply for a line that is not JSON:
    /// `data: {"offset": n, "reason": message, "hint": ...}`.
    public static func parse(_ error: JSONParseError) -> RPCError {
        RPCError(
            .parseError, "Parse error",
            data: .object([
                "offset": .number(JSONNumber(error.offset)),
                "reason": .string(error.message),
                "hint": .string(parseHint),
            ]))
    }

    /// The -32600 reply for a JSON value that is not a valid request: `data: {"reason": reason}`.
    public static func invalidRequest(_ reason: String) -> RPCError {
        RPCError(.invalidRequest, data: .object(["reason": .string(reason)]))
    }

    /// The -32600 reply for a line longer than the limit (after which the server closes):
    /// `data: {"reason": ..., "limit": limit}`.
    public static func lineTooLong(limit: Int) -> RPCError {
        RPCError(
            .invalidRequest,
            data: .object([
                "reason": .string("message exceeds \(limit) bytes"),
                "limit": .number(JSONNumber(limit)),
            ]))
    }
}
