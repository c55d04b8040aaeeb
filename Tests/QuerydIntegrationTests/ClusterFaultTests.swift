// Faults of a cluster of real nodes on a real redis-server: the lease holder killed mid-fetch,
// Redis killed and restarted, Redis down when a node starts, and a namespace of another layout
// version.

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Cluster: faults", .serialized)
struct ClusterFaultTests {
    @Test("the lease holder killed with -9 mid-fetch: its lease expires and another node fetches")
    func holderKilledMidFetch() throws {
        let cluster = try TestCluster(nodes: 2)
        let clients = try cluster.connectAll()
        let fetcherA = try cluster.nodes[0].connect()
        let fetcherB = try cluster.nodes[1].connect()
        let idA = try fetcherA.registerFetcher(["slow"])
        let idB = try fetcherB.registerFetcher(["slow"])
        _ = try clients[0].sendRequest("query.fetch", ["key": ["slow"]])
        _ = try fetcherA.expectFetch(fetcher: idA, key: ["slow"])
        let waiting = try clients[1].sendRequest("query.fetch", ["key": ["slow"]])
        try fetcherB.expectSilence(for: 0.3)
        let killedAt = Clock.now
        cluster.nodes[0].kill9()
        // The lease (1 s) expires; B's next try takes it and calls its own fetcher.
        let request = try fetcherB.expectFetch(fetcher: idB, key: ["slow"])
        let waited = Clock.now - killedAt
        #expect(waited < 2.5, "took \(waited) s")
        try fetcherB.respond(id: request, result: ["data": "from-b"])
        #expect(try clients[1].awaitResponse(id: waiting).member("result")?.member("data") == "from-b")
    }

    @Test(
        "Redis killed and restarted: the write made meanwhile reaches the other node, every query is invalidated on reconnect, the nodes converge"
    )
    func redisRestarted() throws {
        let cluster = try TestCluster(nodes: 2)
        let clients = try cluster.connectAll()
        let (a, b) = (clients[0], clients[1])
        _ = try a.result("query.set", ["key": ["kept"], "data": 1])
        _ = try TestCluster.waitForState(b, ["kept"], "1") { $0.member("data") == 1 }
        _ = try b.result("query.set", ["key": ["other"], "data": "b"])
        _ = try TestCluster.waitForState(a, ["other"], "b") { $0.member("data") == "b" }

        cluster.redis.kill()
        try TestCluster.waitForLinkState(a, "connected", not: true)
        // Acknowledged while Redis is down: applied here at once, sent once Redis is back.
        _ = try a.result("query.set", ["key": ["kept"], "data": 2])
        #expect(try a.result("query.state", ["key": ["kept"]]).member("data") == 2)
        try cluster.redis.start()
        let restartedAt = Clock.now
        let converged = try TestCluster.waitForState(b, ["kept"], "2") { $0.member("data") == 2 }
        #expect(Clock.now - restartedAt < 1.5, "converged after \(Clock.now - restartedAt) s")
        #expect(converged.member("data") == 2)
        try TestCluster.waitUntilJoined(a, nodes: 2)
        try TestCluster.waitUntilJoined(b, nodes: 2)
        // Neither node could know what it missed: both marked every query invalidated.
        for client in [a, b] {
            let state = try client.result("query.state", ["key": ["other"]])
            #expect(state.member("isInvalidated") == true, "\(state)")
            let stats = try client.result("server.stats", [:]).member("cluster") ?? nil
            #expect((stats.member("reconnects")?.asInt ?? 0) >= 1, "\(stats)")
        }
    }

    @Test("a stalled Redis (SIGSTOP) never stalls the loop: pings answered at once, a cold fetch served locally")
    func stalledRedisNeverStallsTheLoop() throws {
        let cluster = try TestCluster(nodes: 1)
        let client = try cluster.connectAll()[0]
        let fetcher = try cluster.nodes[0].connect()
        let id = try fetcher.registerFetcher(["stall"])
        cluster.redis.pause()
        defer { cluster.redis.resume() }
        _ = try client.result("query.set", ["key": ["stall", "written"], "data": 1])
        let call = try client.sendRequest("query.fetch", ["key": ["stall", "cold"]])
        // The shared-data read waits for Redis; the loop does not.
        for _ in 0..<20 {
            let start = Clock.now
            try client.expectHealthy()
            #expect(Clock.now - start < 0.2, "a ping took \(Clock.now - start) s")
            usleep(50_000)
        }
        // The read times out (2 s) and the attempt goes to the local fetcher.
        let request = try fetcher.nextRequest(method: "fetch", timeout: 5)
        #expect(request.member("params") == ["fetcher": id, "key": ["stall", "cold"], "attempt": 1], "\(request)")
        try fetcher.respond(id: request.member("id") ?? nil, result: ["data": "local"])
        #expect(try client.awaitResponse(id: call).member("result")?.member("data") == "local")
    }

    @Test("a node started while Redis is down serves alone, then joins once Redis is up")
    func startsWithRedisDown() throws {
        let cluster = try TestCluster(nodes: 1, redisRunning: false)
        let client = try cluster.nodes[0].connect()
        _ = try client.result("query.set", ["key": ["alone"], "data": 1])
        #expect(try client.result("query.get", ["key": ["alone"]]).member("data") == 1)
        let stats = try client.result("server.stats", [:]).member("cluster") ?? nil
        #expect(stats.member("state") != "connected", "\(stats)")
        #expect(stats.member("nodeId") == "n0")
        #expect(cluster.nodes[0].logTail().contains("cluster: Redis unreachable ("), "\(cluster.nodes[0].logTail())")
        try cluster.redis.start()
        try TestCluster.waitUntilJoined(client, nodes: 1)
        // A second node now hears the first one's writes.
        let second = try DaemonProcess(flags: cluster.clusterFlags(1))
        let other = try second.connect()
        try TestCluster.waitUntilJoined(other, nodes: 2)
        _ = try client.result("query.set", ["key": ["alone"], "data": 2])
        _ = try TestCluster.waitForState(other, ["alone"], "2") { $0.member("data") == 2 }
        #expect(try second.stop() == .exited(0))
    }

    @Test("a Redis with a password: joined with --cluster-password-file; a wrong one leaves the node serving alone")
    func passwordFromAFile() throws {
        let redis = try RedisServerProcess(password: "s3cret")
        let path = "/tmp/qd-pass-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(path) }
        func node(_ password: String) throws -> DaemonProcess {
            PasswordFile.store(password + "\n", at: path)
            return try DaemonProcess(flags: [
                "--cluster", redis.unixURL, "--cluster-namespace", "p\(getpid())", "--cluster-password-file", path,
            ])
        }
        let good = try node("s3cret")
        try TestCluster.waitUntilJoined(try good.connect(), nodes: 1)
        #expect(try good.stop() == .exited(0))
        let bad = try node("wrong")
        let client = try bad.connect()
        usleep(500_000)
        let stats = try client.result("server.stats", [:]).member("cluster") ?? nil
        #expect(stats.member("state") != "connected", "\(stats)")
        _ = try client.result("query.set", ["key": ["alone"], "data": 1])
        #expect(!bad.logTail().contains("s3cret") && !bad.logTail().contains("wrong"), "the log shows a password")
        #expect(bad.logTail().contains("cluster: Redis unreachable ("), "\(bad.logTail())")
        #expect(try bad.stop() == .exited(0))
    }

    @Test("a node finding another layout version in its namespace refuses to join and exits with status 1")
    func otherLayoutRefused() throws {
        let cluster = try TestCluster(nodes: 0)
        _ = try cluster.redis.command(["SET", "{\(cluster.namespace)}:layout", "999"])
        // The refusal may come before or after the socket accepts: either way the process ends.
        var log = ""
        do {
            let node = try cluster.startNode(0)
            let status = node.waitForExit(seconds: 10)
            #expect(status == .exited(1), "\(String(describing: status))")
            log = node.logTail()
        } catch {
            log = "\(error)"
            #expect(log.contains("daemon exited during startup (exit 1)"), "\(log)")
        }
        #expect(log.contains("Redis holds layout version 999 for namespace \(cluster.namespace)"), "\(log)")
        #expect(log.contains("refusing to join"), "\(log)")
        // Redis keeps the other version: nothing was overwritten.
        #expect(try cluster.redis.command(["GET", "{\(cluster.namespace)}:layout"]).contains("999"))
    }
}

extension TestCluster {
    /// Polls the node's `cluster.state` until it is (or, with `not`, is no longer) `state`.
    static func waitForLinkState(_ client: LineClient, _ state: String, not: Bool = false, seconds: Double = 5) throws {
        let deadline = Clock.now + seconds
        var last: JSONValue = nil
        while Clock.now < deadline {
            last = try client.result("server.stats", [:]).member("cluster")?.member("state") ?? nil
            if (last == .string(state)) != not { return }
            usleep(10_000)
        }
        throw IntegrationError("cluster.state stayed \(last.encodedString)")
    }
}

/// A test's password file (mode 0600).
enum PasswordFile {
    static func store(_ text: String, at path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return }
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    }
}
