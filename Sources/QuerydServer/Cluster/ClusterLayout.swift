// The names the cluster uses in Redis: the layout version key, the namespace's one Pub/Sub channel,
// and each query key's data and lease keys. Every name carries a hash tag (`{…}`): the namespace's
// own names hash to one slot, and a query key's data and lease keys to one slot of their own, so
// the layout also works on Redis Cluster. See protocol/cluster.md.

public import QuerydCore
public import QuerydJSON

/// The Redis key and channel names of one cluster namespace.
public struct ClusterLayout: Sendable, Equatable {
    /// The version of this layout and of the messages on the channel; nodes of another version
    /// refuse to join (written once to `layoutKey`).
    public static let version = 1

    /// The namespace (`--cluster-namespace`).
    public let namespace: String

    public init(namespace: String) {
        self.namespace = namespace
    }

    /// `{ns}:layout`: holds `version` as decimal text.
    public var layoutKey: [UInt8] { Array("{\(namespace)}:layout".utf8) }

    /// `{ns}:events`: the channel every node publishes writes, fetch outcomes and heartbeats on.
    public var channel: [UInt8] { Array("{\(namespace)}:events".utf8) }

    /// `{ns}:invalidated`: a hash of when the invalidations (and resets and removals) last covered
    /// each group of keys (`invalidationField`), in ms; a shared copy older than its group's time is
    /// stale.
    public var invalidatedKey: [UInt8] { Array("{\(namespace)}:invalidated".utf8) }

    /// The `invalidatedKey` field of the keys whose first element is `first` when it is a string,
    /// number, boolean or null (the hash of `[first]`), else `*` (every key: a filter with no key or
    /// with an object or array first, which may match keys of any first element).
    public static func invalidationField(_ first: JSONValue?) -> String {
        switch first {
        case nil, .array?, .object?: "*"
        case let scalar?: hash(QueryKey(elements: [scalar]))
        }
    }

    /// `{ns}:node:ID`: the channel of forwarded fetches to (and answers for) node `node`.
    public func nodeChannel(_ node: String) -> [UInt8] { Array("{\(namespace)}:node:\(node)".utf8) }

    /// `ns:{q:HASH}:data`: the shared data of `key` (`ClusterEntry`).
    public func dataKey(_ key: QueryKey) -> [UInt8] { name(key, "data") }

    /// `ns:{q:HASH}:lease`: the fetch lease of `key` (the holder's token; SET NX PX), or
    /// `ns:{q:HASH}:lease:PAGEHASH`: the lease of one page fetch of an infinite query.
    public func leaseKey(_ key: QueryKey, page: ClusterPage? = nil) -> [UInt8] {
        name(key, page.map { "lease:\($0.hash)" } ?? "lease")
    }

    private func name(_ key: QueryKey, _ suffix: String) -> [UInt8] {
        Array("\(namespace):{q:\(Self.hash(key))}:\(suffix)".utf8)
    }

    /// 16 hex digits of the 64-bit FNV-1a hash of the key's canonical JSON: short names for any
    /// key. Entries carry the key itself, so a collision reads as a miss, never as wrong data.
    static func hash(_ key: QueryKey) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        key.withCanonicalBytes { bytes in
            for byte in bytes {
                value ^= UInt64(byte)
                value &*= 0x0000_0100_0000_01b3
            }
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
