// Identifiers of the mutation engine: mutations, mutator registrations and mutate attempts.
// All are positive integers counted from 1 and never reused during the daemon's life.

/// Identifies one mutation (one `mutation.run`).
public struct MutationID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: Int
    /// An id from its integer value.
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
    public static func < (a: MutationID, b: MutationID) -> Bool { a.rawValue < b.rawValue }
}

/// Identifies a mutator registration (a connection serving `mutate` for a key prefix).
public struct MutatorID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    /// An id from its integer value.
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// Identifies one attempt of a mutation, i.e. one `mutate` request to one mutator.
public struct MutationAttemptID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    /// An id from its integer value.
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}
