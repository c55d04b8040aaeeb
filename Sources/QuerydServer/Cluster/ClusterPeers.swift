// The other nodes of the cluster as this node knows them from their heartbeats: when each was last
// heard, the fetchers and mutators its clients registered, and the proxy connection under which
// those are registered in this node's engine (so a fetch or mutation only they serve goes to them).

import QuerydCore

/// The other nodes heard from; plain values, no I/O.
struct ClusterPeers {
    struct Peer {
        var heardAt: Int
        var fetchers: [ClusterMessage.Advert] = []
        var mutators: [ClusterMessage.Advert] = []
        /// The engine connection the node's fetchers are registered under (none without fetchers).
        var proxy: ConnectionID?
    }

    private(set) var peers: [String: Peer] = [:]
    private var nodeByProxy: [ConnectionID: String] = [:]
    private var lastProxy = 0

    /// Whether a connection is a proxy for another node's fetchers (client connections count up
    /// from 1, proxies down from -1).
    static func isProxy(_ connection: ConnectionID) -> Bool { connection.rawValue < 0 }

    var count: Int { peers.count }

    /// The node was heard from at `tick`; with its registrations (a heartbeat), returns whether
    /// they changed (its proxy is then replaced).
    mutating func heard(
        _ node: String, at tick: Int,
        registrations: (fetchers: [ClusterMessage.Advert], mutators: [ClusterMessage.Advert])? = nil
    ) -> Bool {
        var peer = peers[node] ?? Peer(heardAt: tick)
        peer.heardAt = tick
        defer { peers[node] = peer }
        guard let registrations, registrations.fetchers != peer.fetchers || registrations.mutators != peer.mutators
        else { return false }
        (peer.fetchers, peer.mutators) = registrations
        return true
    }

    /// A new proxy connection for `node`'s fetchers (replacing its old one, which is returned).
    mutating func replaceProxy(of node: String) -> (new: ConnectionID, old: ConnectionID?) {
        lastProxy -= 1
        let proxy = ConnectionID(lastProxy)
        let old = peers[node]?.proxy
        if let old { nodeByProxy[old] = nil }
        peers[node]?.proxy = proxy
        nodeByProxy[proxy] = node
        return (proxy, old)
    }

    /// The node whose fetchers `connection` stands for.
    func node(forProxy connection: ConnectionID) -> String? { nodeByProxy[connection] }

    /// Forgets the nodes not heard from since `tick`; returns them with their proxies.
    mutating func expire(before tick: Int) -> [(node: String, proxy: ConnectionID?)] {
        let gone = peers.filter { $0.value.heardAt < tick }.map { (node: $0.key, proxy: $0.value.proxy) }
        for (node, proxy) in gone {
            peers[node] = nil
            if let proxy { nodeByProxy[proxy] = nil }
        }
        return gone
    }

    /// Forgets every node (the link is lost); returns them with their proxies.
    mutating func removeAll() -> [(node: String, proxy: ConnectionID?)] {
        expire(before: Int.max)
    }
}
