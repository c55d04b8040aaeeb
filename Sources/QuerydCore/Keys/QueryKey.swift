// A query key: a non-empty JSON array whose identity is its canonical JSON text, held inline when
// short (see QueryKey+InlineBytes.swift).
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
/// Only the canonical bytes are stored: in place when there are at most 23 of them (no heap
/// allocation), else in one array. The elements are decoded from them when asked for, so a key read
/// back has its canonical spelling (members sorted, strings in NFC, numbers in their identity text).
public struct QueryKey: Sendable, Hashable, CustomStringConvertible {
    /// Where a key's canonical bytes are. The kind is a function of the bytes: at most
    /// `InlineKeyBytes.capacity` are always inline, more are always on the heap.
    enum Storage: Sendable {
        /// Short bytes, held in place.
        case inline(InlineKeyBytes)
        /// Longer bytes (more than `InlineKeyBytes.capacity`).
        case heap([UInt8])
    }

    /// The canonical bytes: the key's identity.
    let storage: Storage

    /// Creates a key from a JSON value, which must be a non-empty array.
    /// - Throws: `QueryKeyError` when `value` is not an array or is an empty array.
    public init(_ value: JSONValue) throws(QueryKeyError) {
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw QueryKeyError(message: "query key must be a non-empty JSON array")
        }
        self.init(canonicalOf: elements)
    }

    /// Creates a key from its elements.
    /// - Precondition: `elements` is not empty.
    public init(elements: [JSONValue]) {
        precondition(!elements.isEmpty, "query key must be a non-empty JSON array")
        self.init(canonicalOf: elements)
    }

    /// A key from its elements (not empty): short keys of simple elements are written in place
    /// with no allocation (see `inlineCanonicalBytes`), others into an array.
    private init(canonicalOf elements: [JSONValue]) {
        if let inline = QueryKey.inlineCanonicalBytes(elements) {
            self.init(storage: .inline(inline))
        } else {
            self.init(lookingUp: QueryKey.canonicalBytes(elements))
        }
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// A key from canonical bytes made by `writeCanonical` (a lookup key, or a stored copy). Long
    /// bytes are kept as they are, spare capacity included (see `compacted`).
    init(lookingUp canonical: [UInt8]) {
        if canonical.count <= InlineKeyBytes.capacity {
            self.storage = .inline(canonical.withUnsafeBytes { InlineKeyBytes($0)! })
        } else {
            self.storage = .heap(canonical)
        }
    }

    /// A key from canonical bytes made by `writeCanonical`, copied (long ones to an array of their
    /// own).
    init(canonicalBytes bytes: UnsafeRawBufferPointer) {
        if let inline = InlineKeyBytes(bytes) {
            self.storage = .inline(inline)
        } else {
            self.storage = .heap(Array(bytes))
        }
    }

    /// The canonical bytes of `elements` in an array (room for most keys reserved at once).
    static func canonicalBytes(_ elements: [JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        writeCanonical(elements, to: &bytes)
        return bytes
    }

    /// Calls `body` with the key's canonical bytes, which are valid only during the call.
    public func withCanonicalBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .inline(let bytes): return try bytes.withBytes(body)
        case .heap(let bytes): return try bytes.withUnsafeBytes(body)
        }
    }

    /// The number of canonical bytes.
    public var canonicalByteCount: Int {
        switch storage {
        case .inline(let bytes): return bytes.count
        case .heap(let bytes): return bytes.count
        }
    }

    /// Keys are equal when their canonical bytes are.
    public static func == (lhs: QueryKey, rhs: QueryKey) -> Bool {
        // The storage kind follows from the byte count, so keys stored differently differ. (One
        // switch at a time: matching the pair of storages copied the arrays and was slower.)
        switch lhs.storage {
        case .inline(let a):
            guard case .inline(let b) = rhs.storage else { return false }
            return a == b
        case .heap(let a):
            guard case .heap(let b) = rhs.storage else { return false }
            return a == b
        }
    }

    /// Hashes the canonical bytes.
    public func hash(into hasher: inout Hasher) {
        withCanonicalBytes { hasher.combine(bytes: $0) }
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
            return try withCanonicalBytes { bytes throws(JSONParseError) in
                try JSONParser.parse(bytes, maxDepth: .max)
            }
        } catch {
            preconditionFailure("a query key's canonical bytes do not parse: \(error)")
        }
    }

    /// Appends the key's canonical JSON text.
    public func write(to out: inout [UInt8]) {
        withCanonicalBytes { out.append(contentsOf: $0) }
    }

    /// The canonical JSON text of the key (compact, object members sorted), which is its identity.
    public var description: String {
        withCanonicalBytes { String(decoding: $0, as: UTF8.self) }
    }
}

extension QueryKey: Comparable {
    /// Keys order by their canonical bytes (unsigned, a prefix first): NFC UTF-8, so this is also
    /// the order of their text.
    public static func < (lhs: QueryKey, rhs: QueryKey) -> Bool {
        if case .inline(let a) = lhs.storage, case .inline(let b) = rhs.storage {
            return InlineKeyBytes.precedes(a, b)
        }
        return lhs.withCanonicalBytes { a in rhs.withCanonicalBytes { b in a.lexicographicallyPrecedes(b) } }
    }
}
