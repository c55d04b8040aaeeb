// One query's shared data in Redis (L2): `{key, data, dataUpdatedAt}` as JSON under the key's data
// key, and the commands that write, read and drop it.

import QuerydCore
import QuerydJSON

/// What a node stores for a query that settled with data.
struct ClusterEntry: Equatable {
    let key: QueryKey
    let data: JSONValue
    /// When the data was fetched (or written), on the clock of the node that did it.
    let dataUpdatedAt: Int64

    var encoded: [UInt8] {
        JSONValue.object(["key": key.jsonValue, "data": data, "dataUpdatedAt": .number(JSONNumber(dataUpdatedAt))])
            .encoded
    }

    init(key: QueryKey, data: JSONValue, dataUpdatedAt: Int64) {
        self.key = key
        self.data = data
        self.dataUpdatedAt = dataUpdatedAt
    }

    /// The entry in a `GET` reply, when it is one for `key` (nil for a miss, another key with the
    /// same hash, or bytes that are not an entry).
    init?(reply: ClusterReply, for key: QueryKey) {
        guard case .bulk(let bytes) = reply, let value = try? JSONParser.parse(bytes),
            let member = value["key"], let stored = try? QueryKey(member), stored == key,
            let data = value["data"], let updatedAt = value["dataUpdatedAt"]?.intValue
        else { return nil }
        self.init(key: key, data: data, dataUpdatedAt: Int64(updatedAt))
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
