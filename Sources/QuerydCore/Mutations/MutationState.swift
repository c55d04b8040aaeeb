// The state of one mutation as clients see it (TanStack's MutationState), and its wire form.

public import QuerydJSON

/// Where a mutation stands.
public enum MutationStatus: String, Sendable {
    case idle, pending, success, error
}

/// A mutation's state: what `mutation.changed` and `mutations.list` carry.
public struct MutationState: Sendable, Equatable {
    public let id: MutationID
    public let key: QueryKey
    public var status: MutationStatus
    /// The variables given to `mutation.run` (null when none were given).
    public let variables: JSONValue
    /// The mutator's data, once the mutation succeeded.
    public var data: JSONValue?
    /// The final error, as a -32007 error object carrying the mutator's error.
    public var error: JSONValue?
    /// Failed attempts so far (reset by a success).
    public var failureCount = 0
    public var failureReason: JSONValue?
    /// Waiting to start or to retry: for an earlier mutation of its scope, or for the network.
    public var isPaused = false
    /// When `mutation.run` was received (ms since the epoch).
    public let submittedAt: Int64
    public let scope: String?
    /// The `meta` option of `mutation.run`, as given (absent when none).
    public var meta: JSONValue?
    /// Grows with every change of this mutation's state (1 for the first state clients see).
    public var version: UInt64 = 0

    /// A pending mutation just submitted.
    init(id: MutationID, key: QueryKey, variables: JSONValue, submittedAt: Int64, scope: String?) {
        self.id = id
        self.key = key
        self.status = .pending
        self.variables = variables
        self.submittedAt = submittedAt
        self.scope = scope
    }

    /// The state object: id, key, status, variables, data (absent until success), error,
    /// failureCount, failureReason, isPaused, submittedAt, scope and meta (absent if none), version.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "id": .number(JSONNumber(id.rawValue)), "key": key.jsonValue, "status": .string(status.rawValue),
            "variables": variables, "error": error ?? .null, "failureCount": .number(JSONNumber(failureCount)),
            "failureReason": failureReason ?? .null, "isPaused": .bool(isPaused),
            "submittedAt": .number(JSONNumber(submittedAt)),
            "version": .number(JSONNumber(Int64(truncatingIfNeeded: version))),
        ]
        if let data { members["data"] = data }
        if let scope { members["scope"] = .string(scope) }
        if let meta { members["meta"] = meta }
        return .object(members)
    }
}
