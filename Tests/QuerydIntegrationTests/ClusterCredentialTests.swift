// Redis credentials from the daemon's environment: `$QUERYD_REDIS_PASSWORD` (and `$QUERYD_REDIS_USER`
// for an ACL user), set for the spawned nodes only, against a redis-server with `requirepass`. The
// right credentials join; a wrong password leaves the node serving alone.

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Cluster: Redis credentials", .serialized)
struct ClusterCredentialTests {
    @Test("$QUERYD_REDIS_PASSWORD and $QUERYD_REDIS_USER: the right ones join, a wrong password serves alone")
    func credentialsFromTheEnvironment() throws {
        #expect(getenv("QUERYD_REDIS_PASSWORD") == nil && getenv("QUERYD_REDIS_USER") == nil)
        let redis = try RedisServerProcess(password: "default-secret")
        #expect(
            try redis.command(["ACL", "SETUSER", "queryd", "on", ">user-secret", "~*", "&*", "+@all"]) == "+OK\r\n")
        let namespace = "t\(UInt32.random(in: 0...UInt32.max))"
        func node(_ id: String, _ environment: [String: String]) throws -> (DaemonProcess, LineClient) {
            let daemon = try DaemonProcess(
                flags: ["--cluster", redis.unixURL, "--cluster-namespace", namespace, "--node-id", id],
                environment: environment)
            return (daemon, try daemon.connect())
        }
        let (nodeA, a) = try node("n0", ["QUERYD_REDIS_PASSWORD": "default-secret"])
        let (nodeB, b) = try node("n1", ["QUERYD_REDIS_USER": "queryd", "QUERYD_REDIS_PASSWORD": "user-secret"])
        let (nodeC, c) = try node("n2", ["QUERYD_REDIS_PASSWORD": "wrong"])
        try TestCluster.waitUntilJoined(a, nodes: 2)
        try TestCluster.waitUntilJoined(b, nodes: 2)
        _ = try a.result("query.set", ["key": ["auth"], "data": "from-a"])
        _ = try TestCluster.waitForState(b, ["auth"], "from-a") { $0.member("data") == "from-a" }

        // C is refused by Redis: never connected, it sees no other node and serves alone.
        let cluster = try c.result("server.stats", [:]).member("cluster") ?? nil
        #expect(cluster.member("state") != "connected" && cluster.member("nodesSeen") == 1, "\(cluster)")
        #expect(try c.result("query.state", ["key": ["auth"]]) == nil)
        _ = try c.result("query.set", ["key": ["alone"], "data": 1])
        #expect(try c.result("query.state", ["key": ["alone"]]).member("data") == 1)
        #expect(nodeC.logTail().contains("Redis unreachable"), "\(nodeC.logTail())")
        for client in [a, b] {
            #expect(try client.result("server.stats", [:]).member("cluster")?.member("nodesSeen") == 2)
        }
        withExtendedLifetime([nodeA, nodeB]) {}
    }
}
