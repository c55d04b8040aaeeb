// Mutation filters (TanStack's MutationFilters) as the wire carries them: a key prefix (partial
// unless exact) and a status.

public import QuerydJSON

/// Which mutations `mutation.subscribe` and `mutations.list` cover.
public struct MutationFilter: Sendable, Equatable {
    /// Key prefix (elements, objects matching partially); nil matches every key.
    public var key: [JSONValue]?
    /// Match only the key equal to `key`.
    public var exact = false
    public var status: MutationStatus?

    /// A filter that matches every mutation.
    public init() {}

    /// Reads a filter object (or nil for "everything").
    public init(json value: JSONValue?, path: String = "filter") throws(OptionsError) {
        guard let value, !value.isNull else { return }
        guard case .object(let members) = value else { throw OptionsError(field: path, reason: "must be an object") }
        var keyReader = FilterKeyReader()
        for (name, member) in members {
            let field = "\(path).\(name)"
            if try keyReader.read(name, member, field: field) { continue }
            switch name {
            case "status":
                guard let text = member.stringValue, let parsed = MutationStatus(rawValue: text) else {
                    throw OptionsError(field: field, reason: "must be \"idle\", \"pending\", \"success\" or \"error\"")
                }
                status = parsed
            default:
                throw OptionsError(field: field, reason: "unknown filter field; supported: key, exact, status")
            }
        }
        try keyReader.validate(path: path)
        key = keyReader.key
        exact = keyReader.exact
    }

    /// Whether the mutation with this state is covered.
    public func matches(_ state: MutationState) -> Bool {
        if let status, state.status != status { return false }
        guard let key else { return true }
        return exact ? state.key.elements == key : KeyMatching.matches(state.key, prefix: key)
    }
}
