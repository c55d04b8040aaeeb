// A test cluster: one real redis-server (RedisServerProcess) and real `queryd serve --cluster`
// nodes on it, each in its own namespace per test, with helpers to wait until they have joined.

import Glibc
import QuerydJSON
import QuerydTestSupport

/// Redis and the nodes of one cluster test; everything is stopped when released.
final class TestCluster {
    let redis: RedisServerProcess
    /// A namespace of its own, so tests never see each other's keys.
    let namespace = "t\(UInt32.random(in: 0...UInt32.max))"
    private(set) var nodes: [DaemonProcess] = []
    /// The Redis URL the nodes use.
    let url: String
    /// Extra flags for every node.
    let flags: [String]

    /// Starts Redis (over TCP on 127.0.0.1 when `tcp`) and `count` nodes named n0, n1, …
    init(nodes count: Int = 3, tcp: Bool = false, redisRunning: Bool = true, flags: [String] = []) throws {
        redis = try RedisServerProcess(tcp: tcp, start: redisRunning)
        url = tcp ? redis.tcpURL! : redis.unixURL
        self.flags = flags
        for index in 0..<count { nodes.append(try startNode(index)) }
    }

    deinit {
        for node in nodes { node.kill9() }
    }

    /// The flags that make node `index` join this cluster (lease 1 s, so a dead holder costs 1 s).
    func clusterFlags(_ index: Int) -> [String] {
        ["--cluster", url, "--cluster-namespace", namespace, "--node-id", "n\(index)", "--cluster-lease-ms", "1000"]
            + flags
    }

    /// Starts node `index` (again, after a kill: `replaceNode`).
    func startNode(_ index: Int) throws -> DaemonProcess {
        try DaemonProcess(flags: clusterFlags(index))
    }

    /// Polls (every 20 ms, at most `seconds`) until `client`'s node is connected and has heard
    /// from `nodes` nodes (itself included): it has joined, and the others' messages reach it.
    static func waitUntilJoined(_ client: LineClient, nodes: Int, seconds: Double = 10) throws {
        let deadline = Clock.now + seconds
        var last: JSONValue = nil
        while Clock.now < deadline {
            last = try client.result("server.stats", [:]).member("cluster") ?? nil
            if last.member("state") == "connected", last.member("nodesSeen")?.asInt == nodes { return }
            usleep(20_000)
        }
        throw IntegrationError(
            "the node never joined with \(nodes) nodes seen; last cluster stats: \(last.encodedString)")
    }

    /// Connects one client to every node and waits until each has joined and seen all of them.
    func connectAll() throws -> [LineClient] {
        let clients = try nodes.map { try $0.connect() }
        for client in clients { try Self.waitUntilJoined(client, nodes: nodes.count) }
        return clients
    }

    /// Connects a fetcher client to every node, each registered for `prefix`.
    func registerFetchers(_ prefix: JSONValue) throws -> [LineClient] {
        try nodes.map { node in
            let fetcher = try node.connect()
            _ = try fetcher.registerFetcher(prefix)
            return fetcher
        }
    }

    /// The next `fetch` request any of `fetchers` gets (within 5 s), and the index of the one that got it.
    static func nextFetch(_ fetchers: [LineClient]) throws -> (Int, JSONValue) {
        let deadline = Clock.now + 5
        while Clock.now < deadline {
            for (index, fetcher) in fetchers.enumerated() {
                if let request = try? fetcher.nextRequest(method: "fetch", timeout: 0.05) { return (index, request) }
            }
        }
        throw IntegrationError("no fetcher was called")
    }

    /// Polls `query.state` of `key` on `client` (every 10 ms, at most `seconds`) until `matches` holds.
    static func waitForState(
        _ client: LineClient, _ key: JSONValue, seconds: Double = 5, _ what: String,
        matches: (JSONValue) -> Bool
    ) throws -> JSONValue {
        let deadline = Clock.now + seconds
        var last: JSONValue = nil
        while Clock.now < deadline {
            last = try client.result("query.state", ["key": key])
            if matches(last) { return last }
            usleep(10_000)
        }
        throw IntegrationError("query.state \(key.encodedString) never became \(what); last: \(last.encodedString)")
    }
}
