// A query key: a non-empty JSON array whose identity is its canonical JSON text.
//
// Equality and hashing are over the key's canonical bytes (see QueryKey+Canonical.swift), which
// are equal exactly when the JSON values are: object member order does not matter (TanStack's
// hashKey sorts members), `1` and `1.0` are the same number. A cache hit can then be looked up
// from the canonical bytes of a request line without building the key's values.

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
    /// The canonical bytes: the key's identity.
    let canonical: [UInt8]

    /// Creates a key from a JSON value, which must be a non-empty array.
    /// - Throws: `QueryKeyError` when `value` is not an array or is an empty array.
    public init(_ value: JSONValue) throws(QueryKeyError) {
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw QueryKeyError(message: "query key must be a non-empty JSON array")
        }
        self.elements = elements
        self.canonical = QueryKey.canonicalBytes(elements)
    }

    /// Creates a key from its elements.
    /// - Precondition: `elements` is not empty.
    public init(elements: [JSONValue]) {
        precondition(!elements.isEmpty, "query key must be a non-empty JSON array")
        self.elements = elements
        self.canonical = QueryKey.canonicalBytes(elements)
    }

    /// A key used only to look a query up by its canonical bytes; it has no elements and must not
    /// be stored.
    init(lookingUp canonical: [UInt8]) {
        self.elements = []
        self.canonical = canonical
    }

    private static func canonicalBytes(_ elements: [JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        writeCanonical(elements, to: &bytes)
        return bytes
    }

    /// Keys are equal when their canonical bytes are.
    public static func == (lhs: QueryKey, rhs: QueryKey) -> Bool { lhs.canonical == rhs.canonical }

    /// Hashes the canonical bytes.
    public func hash(into hasher: inout Hasher) {
        canonical.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The key as a JSON array.
    public var jsonValue: JSONValue { .array(elements) }

    /// The canonical JSON text of the key (compact, object members sorted), which is its identity.
    public var description: String { jsonValue.encodedString }
}
