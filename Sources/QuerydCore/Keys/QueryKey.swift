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
///
/// Only the canonical bytes are stored (one small array per key); the elements are decoded from
/// them when asked for, so a key read back has its canonical spelling (members sorted, strings in
/// NFC, numbers in their identity text).
public struct QueryKey: Sendable, Hashable, CustomStringConvertible {
    /// The canonical bytes: the key's identity.
    let canonical: [UInt8]

    /// Creates a key from a JSON value, which must be a non-empty array.
    /// - Throws: `QueryKeyError` when `value` is not an array or is an empty array.
    public init(_ value: JSONValue) throws(QueryKeyError) {
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw QueryKeyError(message: "query key must be a non-empty JSON array")
        }
        self.canonical = QueryKey.canonicalBytes(elements)
    }

    /// Creates a key from its elements.
    /// - Precondition: `elements` is not empty.
    public init(elements: [JSONValue]) {
        precondition(!elements.isEmpty, "query key must be a non-empty JSON array")
        self.canonical = QueryKey.canonicalBytes(elements)
    }

    /// A key from canonical bytes made by `writeCanonical` (a lookup key, or a stored copy).
    init(lookingUp canonical: [UInt8]) {
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

    /// The elements of the key array, in order (decoded from the canonical bytes). Never empty.
    public var elements: [JSONValue] {
        guard case .array(let elements) = jsonValue else {
            preconditionFailure("a query key's canonical bytes are not an array")
        }
        return elements
    }

    /// The key as a JSON array (decoded from the canonical bytes).
    public var jsonValue: JSONValue {
        do {
            // The bytes are this type's own compact encoding of a key that was parsed within the
            // request depth limit, so they always parse.
            return try JSONParser.parse(canonical, maxDepth: .max)
        } catch {
            preconditionFailure("a query key's canonical bytes do not parse: \(error)")
        }
    }

    /// Appends the key's canonical JSON text.
    public func write(to out: inout [UInt8]) { out.append(contentsOf: canonical) }

    /// The canonical JSON text of the key (compact, object members sorted), which is its identity.
    public var description: String { String(decoding: canonical, as: UTF8.self) }
}

extension QueryKey: Comparable {
    /// Keys order by their canonical bytes: NFC UTF-8, so this is also the order of their text.
    public static func < (lhs: QueryKey, rhs: QueryKey) -> Bool {
        lhs.canonical.lexicographicallyPrecedes(rhs.canonical)
    }
}
