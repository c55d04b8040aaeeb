// One query's shared data in Redis (L2): `{key, data, dataUpdatedAt}` as JSON under the key's data
// key (an infinite query's data is its `{pages, pageParams}`, with `pageLinks`), and the command that
// writes it.

import QuerydCore
import QuerydJSON

/// What a node stores for a query that settled with data.
struct ClusterEntry: Equatable {
    let key: QueryKey
    let data: JSONValue
    /// When the data was fetched (or written), on the clock of the node that did it.
    let dataUpdatedAt: Int64
    /// An infinite query's next and previous page params of each page (nil: none known).
    let pageLinks: [PageLinks]?

    var encoded: [UInt8] {
        var members: [String: JSONValue] = [
            "key": key.jsonValue, "data": data, "dataUpdatedAt": .number(JSONNumber(dataUpdatedAt)),
        ]
        if let pageLinks { members["pageLinks"] = .array(pageLinks.map(Self.encode)) }
        return JSONValue.object(members).encoded
    }

    init(key: QueryKey, data: JSONValue, dataUpdatedAt: Int64, pageLinks: [PageLinks]? = nil) {
        self.key = key
        self.data = data
        self.dataUpdatedAt = dataUpdatedAt
        self.pageLinks = pageLinks
    }

    /// The entry of a query in `state` (nil without data).
    init?(key: QueryKey, state: QueryState) {
        guard let data = state.data else { return nil }
        self.init(key: key, data: data, dataUpdatedAt: state.dataUpdatedAt, pageLinks: state.pageLinks)
    }

    /// The entry in a `GET` reply, when it is one for `key` (nil for a miss, another key with the
    /// same hash, or bytes that are not an entry).
    init?(reply: ClusterReply, for key: QueryKey) {
        guard case .bulk(let bytes) = reply, let value = try? JSONParser.parse(bytes),
            let member = value["key"], let stored = try? QueryKey(member), stored == key,
            let data = value["data"], let updatedAt = value["dataUpdatedAt"]?.intValue
        else { return nil }
        let pageLinks = value["pageLinks"]?.arrayValue?.map(Self.decode)
        self.init(key: key, data: data, dataUpdatedAt: Int64(updatedAt), pageLinks: pageLinks)
    }

    /// One page's links as `{"next"?: param, "previous"?: param}`.
    private static func encode(_ links: PageLinks) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if let next = links.next { members["next"] = next }
        if let previous = links.previous { members["previous"] = previous }
        return .object(members)
    }

    /// The links in `encode`'s form; null (or anything not an object) counts as no page.
    private static func decode(_ value: JSONValue) -> PageLinks {
        // Spelled out: a bare `nil` in a JSONValue context would be JSON null (a literal), not absence.
        func param(_ name: String) -> JSONValue? { value[name].flatMap { $0.isNull ? JSONValue?.none : $0 } }
        return PageLinks(next: param("next"), previous: param("previous"))
    }

    /// Whether the data is fresh at `now` for a caller with `staleTime` (TanStack's `isStale`:
    /// stale once `now - dataUpdatedAt >= staleTime`).
    func isFresh(at now: Int64, staleTime: StaleTime) -> Bool {
        switch staleTime {
        case .milliseconds(let limit): return now - dataUpdatedAt < limit
        case .infinity, .static: return true
        }
    }

    /// `SET dataKey entry [PX ms]`: kept at least `gcTime` (never expiring when gcTime is nil, as
    /// such a query is never collected either).
    func setCommand(_ layout: ClusterLayout, gcTime: Int64?) -> [[UInt8]] {
        var command = [Array("SET".utf8), layout.dataKey(key), encoded]
        if let gcTime { command += [Array("PX".utf8), Array(String(max(gcTime, 1)).utf8)] }
        return command
    }
}
