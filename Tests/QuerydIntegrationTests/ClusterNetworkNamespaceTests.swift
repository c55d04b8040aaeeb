// The cluster over real addresses: Redis in a network namespace of its own (veth pair, root only),
// the nodes reaching it over TCP, not loopback.

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Cluster: Redis in a network namespace", .serialized)
struct ClusterNetworkNamespaceTests {
    @Test(
        "over TCP between real addresses: a write on one node reaches a subscriber on another, a herd calls one fetcher",
        .enabled(if: RedisInNetworkNamespace.isAvailable, "needs root and ip (netns)"))
    func acrossANetworkNamespace() throws {
        let namespace = try RedisInNetworkNamespace()
        let group = "t\(UInt32.random(in: 0...UInt32.max))"
        let nodes = try (0..<2).map { index in
            try DaemonProcess(flags: [
                "--cluster", namespace.url, "--cluster-namespace", group, "--node-id", "n\(index)",
                "--cluster-lease-ms", "1000",
            ])
        }
        let clients = try nodes.map { try $0.connect() }
        for client in clients { try TestCluster.waitUntilJoined(client, nodes: 2) }
        let (a, b) = (clients[0], clients[1])
        _ = try a.result("query.set", ["key": ["net"], "data": 1])
        _ = try TestCluster.waitForState(b, ["net"], "1") { $0.member("data") == 1 }
        _ = try b.result("query.subscribe", ["key": ["net"], "options": ["staleTime": "Infinity"]])
        _ = try a.result("queries.invalidate", ["filter": ["key": ["net"]], "refetchType": "none"])
        let push = try b.nextNotification(method: "query.changed")
        #expect(push.member("params")?.member("state")?.member("isInvalidated") == true)

        let fetchers = try nodes.map { try $0.connect() }
        for fetcher in fetchers { _ = try fetcher.registerFetcher(["cold"]) }
        let calls = try (0..<100).map { index in try clients[index % 2].sendRequest("query.fetch", ["key": ["cold"]]) }
        var request: (Int, JSONValue)?
        let deadline = Clock.now + 5
        while request == nil, Clock.now < deadline {
            for (index, fetcher) in fetchers.enumerated() {
                if let found = try? fetcher.nextRequest(method: "fetch", timeout: 0.05) { request = (index, found) }
            }
        }
        let (holder, fetch) = try #require(request, "no fetcher was called")
        try fetchers[holder].respond(id: fetch.member("id") ?? nil, result: ["data": "net"])
        for (index, id) in calls.enumerated() {
            #expect(try clients[index % 2].awaitResponse(id: id).member("result")?.member("data") == "net")
        }
        for fetcher in fetchers { try fetcher.expectSilence(for: 0.2) }
        for node in nodes { #expect(try node.stop() == .exited(0)) }
    }
}
