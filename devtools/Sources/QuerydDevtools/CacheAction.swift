// The actions the page can take on one query, as TanStack Devtools' buttons, and the daemon method each one calls.

/// An action on the query with key `key`.
public struct CacheAction: Sendable, Equatable {
    /// What to do.
    public enum Verb: String, Sendable, CaseIterable {
        case refetch, invalidate, reset, remove, set
    }

    public let verb: Verb
    public let key: JSON
    /// The new data, for ``Verb/set`` only.
    public let data: JSON?

    /// Reads `{"action": verb, "key": [...], "data": ...}` as the page sends it; nil when malformed.
    public init?(message: JSON) {
        guard let name = message["action"]?.string, let verb = Verb(rawValue: name),
            let key = message["key"], case .array = key
        else { return nil }
        if verb == .set && message["data"] == nil { return nil }
        self.verb = verb
        self.key = key
        self.data = verb == .set ? message["data"] : nil
    }

    /// The daemon method and its params. Each `queries.*` method matches this one key exactly; invalidate
    /// refetches the query when it is active, as TanStack's `invalidateQueries` does.
    public var request: (method: String, params: JSON) {
        let filter: JSON = ["filter": ["key": key, "exact": true]]
        switch verb {
        case .refetch: return ("queries.refetch", filter)
        case .invalidate: return ("queries.invalidate", filter)
        case .reset: return ("queries.reset", filter)
        case .remove: return ("queries.remove", filter)
        case .set: return ("query.set", ["key": key, "data": data ?? .null])
        }
    }
}
