// The cache as one poll saw it, and what changed between two polls (what the page is sent).

/// Every query's state, by its key's JSON text, and the daemon's `server.stats`.
public struct CacheSnapshot: Sendable, Equatable {
    public let states: [String: JSON]
    public let stats: JSON

    /// The snapshot of `states` (from `queries.list`), each given `stale`: whether its key's text is in `staleKeys`.
    public init(states: [JSON], staleKeys: Set<String>, stats: JSON) {
        var byKey: [String: JSON] = [:]
        for case .object(var members) in states {
            let key = (members["key"] ?? .null).text
            members["stale"] = .bool(staleKeys.contains(key))
            byKey[key] = .object(members)
        }
        self.states = byKey
        self.stats = stats
    }

    /// The whole snapshot as the page's first message: `{"type":"snapshot","queries":[states],"stats":{...}}`.
    public var message: JSON {
        ["type": "snapshot", "queries": .array(states.keys.sorted().map { states[$0]! }), "stats": stats]
    }

    /// What changed since `earlier`: `{"type":"update","upsert":[states],"remove":[keys],"stats":{...}}`. A state
    /// is upserted when any of its members differs (staleness and observers change without a new version).
    public func changes(since earlier: CacheSnapshot) -> JSON {
        let upserted = states.keys.sorted().compactMap { key in states[key] == earlier.states[key] ? nil : states[key] }
        let removed = earlier.states.keys.sorted().filter { states[$0] == nil }.map { earlier.states[$0]!["key"]! }
        return ["type": "update", "upsert": .array(upserted), "remove": .array(removed), "stats": stats]
    }
}
