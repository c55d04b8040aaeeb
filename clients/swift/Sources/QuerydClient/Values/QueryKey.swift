// Typed query keys: any Encodable value that encodes to a non-empty JSON array.

public import QuerydJSON

/// A query key. Its JSON encoding must be a non-empty array; the daemon identifies queries by the
/// canonical JSON of that array, and filters match by prefix.
///
/// Arrays of ``QueryKeyElement`` values are keys (`["todos", "open"]`), ``JSONKey`` holds mixed literals
/// (`["todos", 1, ["done": false]]`), and a custom type can encode itself with an unkeyed container:
///
/// ```swift
/// struct TodoKey: QueryKey {
///     let id: Int
///     func encode(to encoder: any Encoder) throws {
///         var container = encoder.unkeyedContainer()
///         try container.encode("todos")
///         try container.encode(id)
///     }
/// }
/// ```
public protocol QueryKey: Encodable, Sendable {}

/// A value that can be an element of an array key such as `["todos", "open"]`. Strings, integers,
/// floating-point numbers and booleans are; conform your own Encodable, Sendable types to use them.
public protocol QueryKeyElement: Encodable, Sendable {}

extension String: QueryKeyElement {}
extension Int: QueryKeyElement {}
extension Int64: QueryKeyElement {}
extension Double: QueryKeyElement {}
extension Bool: QueryKeyElement {}
extension Optional: QueryKeyElement where Wrapped: QueryKeyElement {}
extension Array: QueryKeyElement where Element: QueryKeyElement {}
extension Dictionary: QueryKeyElement where Key == String, Value: QueryKeyElement {}

extension Array: QueryKey where Element: QueryKeyElement {}

/// A key given as JSON values, for keys that mix types: `let key: JSONKey = ["todos", 1]`.
public struct JSONKey: QueryKey, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The key's elements.
    public var elements: [JSONValue]

    /// A key from its elements.
    public init(_ elements: [JSONValue]) { self.elements = elements }

    /// A key from literal elements.
    public init(arrayLiteral elements: JSONValue...) { self.elements = elements }

    /// Encodes the elements as a JSON array.
    public func encode(to encoder: any Encoder) throws {
        try EncodableJSON(value: .array(elements)).encode(to: encoder)
    }

    /// The key's canonical JSON text.
    public var description: String { JSONValue.array(elements).encodedString }
}

/// Turns keys into the JSON arrays sent on the wire.
enum KeyEncoding {
    /// The key as a JSON array; throws when it is not a non-empty array.
    static func json(_ key: some QueryKey) throws(QueryClientError) -> JSONValue {
        let value: JSONValue
        if let direct = key as? JSONKey {
            value = .array(direct.elements)
        } else {
            value = try JSONCoding.encode(key)
        }
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw .invalidKey("a key must encode to a non-empty JSON array, got \(value.encodedString)")
        }
        return value
    }
}
