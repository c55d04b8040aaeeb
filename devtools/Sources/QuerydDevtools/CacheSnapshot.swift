// The cache as the devtools' `cache.watch` sees it: the watch's snapshot with every `cache.changed` event applied
// since. A page that joins is sent it whole; after that, pages get the events themselves.

/// Every query's state (by its key's JSON text), the fetchers and mutators registered (by id), the fetches in flight
/// (by key text) and the mutations in flight (by id), as of the last event applied.
public struct CacheSnapshot: Sendable, Equatable {
    public private(set) var states: [String: JSON] = [:]
    public private(set) var fetchers: [Int64: JSON] = [:]
    public private(set) var mutators: [Int64: JSON] = [:]
    public private(set) var fetches: [String: JSON] = [:]
    public private(set) var mutations: [Int64: JSON] = [:]

    /// The snapshot of a `cache.watch` result (`{watch, queries, fetchers, mutators, mutations}`). The fetches in flight
    /// are the queries whose `fetchStatus` is `fetching` or `paused` (a paused fetch has started: it waits for the
    /// network or a fetcher); the mutations in flight are those `pending`.
    public init(watchResult result: JSON) {
        for state in Self.elements(result["queries"]) {
            let key = (state["key"] ?? .null).text
            states[key] = state
            if state["fetchStatus"] == "fetching" || state["fetchStatus"] == "paused" { fetches[key] = state["key"] }
        }
        for registration in Self.elements(result["fetchers"]) { add(registration, to: &fetchers) }
        for registration in Self.elements(result["mutators"]) { add(registration, to: &mutators) }
        for mutation in Self.elements(result["mutations"]) where mutation["status"] == "pending" {
            add(mutation, to: &mutations)
        }
    }

    /// Applies the events of one `cache.changed` notification, in order.
    public mutating func apply(_ events: [JSON]) {
        for event in events {
            switch event["type"]?.string {
            case "query.added", "query.changed":
                if let state = event["state"] { states[(state["key"] ?? .null).text] = state }
            case "query.removed": states[(event["key"] ?? .null).text] = nil
            case "fetch.started": fetches[(event["key"] ?? .null).text] = event["key"]
            case "fetch.settled": fetches[(event["key"] ?? .null).text] = nil
            case "fetcher.registered": add(event, to: &fetchers)
            case "fetcher.unregistered": fetchers[event["id"]?.integer ?? 0] = nil
            case "mutator.registered": add(event, to: &mutators)
            case "mutator.unregistered": mutators[event["id"]?.integer ?? 0] = nil
            case "mutation.started": if let mutation = event["mutation"] { add(mutation, to: &mutations) }
            case "mutation.settled": mutations[event["mutation"]?["id"]?.integer ?? 0] = nil
            default: break  // an event type this version does not know
            }
        }
    }

    /// The whole snapshot as the page's first message: `{"type":"snapshot","queries":[states],"fetchers":[…],
    /// "mutators":[…],"fetches":[keys],"mutations":[…]}`, each list in key or id order.
    public var message: JSON {
        [
            "type": "snapshot", "queries": .array(states.keys.sorted().map { states[$0]! }),
            "fetchers": Self.ordered(fetchers), "mutators": Self.ordered(mutators),
            "fetches": .array(fetches.keys.sorted().map { fetches[$0]! }), "mutations": Self.ordered(mutations),
        ]
    }

    /// A registration or mutation state, by its `id` (without the event's `type`).
    private func add(_ value: JSON, to map: inout [Int64: JSON]) {
        guard case .object(var members) = value, let id = members["id"]?.integer else { return }
        members["type"] = nil
        map[id] = .object(members)
    }

    private static func ordered(_ map: [Int64: JSON]) -> JSON {
        .array(map.keys.sorted().map { map[$0]! })
    }

    private static func elements(_ list: JSON?) -> [JSON] {
        if case .array(let elements) = list { return elements }
        return []
    }
}
