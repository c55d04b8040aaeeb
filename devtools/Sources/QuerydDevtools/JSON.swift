// A JSON value: what the devtools read from the daemon and pass on to the page. Integers are kept as Int64 (the
// daemon's counters, versions and timestamps); other numbers as Double.

import Foundation

/// A JSON value, Codable with Foundation's JSONEncoder and JSONDecoder.
public enum JSON: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member `name` of an object (nil for anything else or a missing member).
    public subscript(name: String) -> JSON? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    /// The value as an integer, when it is one.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value as a string, when it is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The compact JSON text, members in sorted order (so equal values have equal texts).
    public var text: String {
        String(decoding: try! JSON.encoder.encode(self), as: UTF8.self)
    }

    /// Parses JSON text.
    public static func parse(_ bytes: some Collection<UInt8>) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: Data(bytes))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
