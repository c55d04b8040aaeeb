// The JSON-RPC 2.0 request identifier: a string, a number or null (spec §4), echoed unchanged.

public import QuerydJSON

/// A JSON-RPC request id. Numbers keep their exact value (`9007199254740993` is echoed byte for
/// byte). `null` is legal in JSON-RPC but refused for requests here (their replies would look like
/// replies to unparsable lines); it remains the id of replies whose request id is unknown.
public enum RPCID: Sendable, Hashable {
    /// A string id such as `"s:17"`.
    case string(String)
    /// A numeric id; integers are exact, fractions (legal but discouraged) are kept.
    case number(JSONNumber)
    /// The null id: echoed to a request that sent `"id": null` (refused), and used by error replies whose
    /// request id could not be determined.
    case null

    /// The id taken from a JSON value, or nil when the value is not a legal id type
    /// (objects, arrays and booleans are not).
    public init?(jsonValue: JSONValue) {
        switch jsonValue {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .null: self = .null
        case .bool, .array, .object: return nil
        }
    }

    /// The id as a JSON value.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        case .null: return .null
        }
    }

    /// Appends the id's compact JSON text to `out`.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .string(let text): JSONWriter.writeString(text, to: &out)
        case .number(let number): JSONWriter.writeNumber(number, to: &out)
        case .null: out.append(contentsOf: RPCID.nullBytes)
        }
    }

    private static let nullBytes: [UInt8] = Array("null".utf8)
}

extension RPCID: CustomStringConvertible {
    /// The id's JSON text, for logs.
    public var description: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension RPCID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// A numeric id from an integer literal.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }

    /// A string id from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}
