// Query filters (TanStack's QueryFilters) as the wire carries them, and how they are read.

public import QuerydJSON

/// Which queries an operation such as `queries.invalidate` applies to.
public struct QueryFilter: Sendable, Equatable {
    /// Whether a query is observed by at least one enabled subscription.
    public enum Activity: String, Sendable {
        case all, active, inactive
    }

    /// Key prefix (elements, objects matching partially); nil matches every key.
    public var key: [JSONValue]?
    /// Match only the key equal to `key`.
    public var exact = false
    public var type: Activity = .all
    public var stale: Bool?
    public var fetchStatus: FetchStatus?

    /// Whether matching reads the queries' state (not only their keys).
    var readsState: Bool { type != .all || stale != nil || fetchStatus != nil }

    /// A filter that matches everything.
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
            case "type":
                guard let text = member.stringValue, let activity = Activity(rawValue: text) else {
                    throw OptionsError(field: field, reason: "must be \"all\", \"active\" or \"inactive\"")
                }
                type = activity
            case "stale":
                guard case .bool(let b) = member else { throw OptionsError(field: field, reason: "must be a boolean") }
                stale = b
            case "fetchStatus":
                guard let text = member.stringValue, let status = FetchStatus(rawValue: text) else {
                    throw OptionsError(field: field, reason: "must be \"idle\", \"fetching\" or \"paused\"")
                }
                fetchStatus = status
            default:
                throw OptionsError(
                    field: field, reason: "unknown filter field; supported: key, exact, type, stale, fetchStatus")
            }
        }
        try keyReader.validate(path: path)
        key = keyReader.key
        exact = keyReader.exact
    }
}
