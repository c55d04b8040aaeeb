// A query key: a non-empty JSON array whose identity is its canonical JSON text.
//
// Equality and hashing come from `JSONValue`, whose objects are unordered, so two keys that
// differ only in object member order are the same query (TanStack's hashKey sorts members).

public import QuerydJSON

/// The error thrown when a JSON value cannot be used as a query key.
public struct QueryKeyError: Error, Sendable, Equatable {
    /// A human-readable reason, e.g. "query key must be a non-empty JSON array".
    public let message: String

    /// Creates an error with the given reason.
    public init(message: String) {
        self.message = message
    }
}

/// The identity of a cached query: a non-empty JSON array compared canonically
/// (object members in any order are equal; array order matters; `1` and `1.0` are equal).
public struct QueryKey: Sendable, Hashable, CustomStringConvertible {
    /// The elements of the key array, in order. Never empty.
    public let elements: [JSONValue]

    /// Creates a key from a JSON value, which must be a non-empty array.
    /// - Throws: `QueryKeyError` when `value` is not an array or is an empty array.
    public init(_ value: JSONValue) throws(QueryKeyError) {
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw QueryKeyError(message: "query key must be a non-empty JSON array")
        }
        self.elements = elements
    }

    /// Creates a key from its elements.
    /// - Precondition: `elements` is not empty.
    public init(elements: [JSONValue]) {
        precondition(!elements.isEmpty, "query key must be a non-empty JSON array")
        self.elements = elements
    }

    /// The key as a JSON array.
    public var jsonValue: JSONValue { .array(elements) }

    /// The canonical JSON text of the key (compact, object members sorted), which is its identity.
    public var description: String { jsonValue.encodedString }
}
