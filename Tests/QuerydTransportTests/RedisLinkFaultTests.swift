// The Redis link when Redis fails: killed and restarted (outstanding commands fail once, the link reconnects and
// restores its subscriptions), stalled by SIGSTOP (the command times out, the loop never stalls), unreachable at
// start (retries until the server appears), and the memory of each connection cycle is released.
import QuerydTestSupport
import Testing

@testable import QuerydTransport

@Suite(.serialized) struct RedisLinkFaultTests {
    @Test func killedRedisFailsOutstandingOnceThenRestartReconnectsAndResubscribes() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server, channels: ["ch"])
        weak var oldCommand: RedisConnection?
        weak var oldSubscriber: RedisConnection?
        oldCommand = recorded.link.commandConnection
        oldSubscriber = recorded.link.subscriberConnection
        #expect(oldCommand != nil && oldSubscriber != nil)
        // Frozen first, so that the command is surely unanswered when the server dies.
        server.pause()
        var replies: [RedisReply] = []
        recorded.link.send(command("GET", "k")) { replies.append($0) }
        run(loop, milliseconds: 20)
        #expect(replies.isEmpty)
        server.kill()
        wait(loop) { recorded.link.state == .disconnected }
        #expect(replies.count == 1)
        #expect(replies.first?.isDisconnected == true)
        #expect(recorded.states == [.connecting, .connected, .disconnected])
        // Attempts fail while the server is down (connection refused), without ever reporting connected.
        wait(loop) { recorded.states.count >= 7 }
        #expect(!recorded.states.dropFirst(2).contains(.connected))
        try server.restart()
        wait(loop) { recorded.link.state == .connected }
        #expect(recorded.link.reconnects == 1)
        #expect(replies.count == 1)
        let states = recorded.states
        #expect(Array(states.prefix(3)) == [.connecting, .connected, .disconnected])
        #expect(Array(states.suffix(2)) == [.connecting, .connected])
        let cycles = Array(states.dropFirst(3).dropLast(2))
        #expect(cycles == Array(repeating: [.connecting, .disconnected], count: cycles.count / 2).flatMap { $0 })
        // The connections of the first cycle are gone; the subscription is back.
        #expect(oldCommand == nil)
        #expect(oldSubscriber == nil)
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "ch", "after")) == .integer(1))
        wait(loop) { recorded.messages.count == 1 }
        #expect(recorded.messages.first?.channel == "ch")
        #expect(recorded.messages.first?.payload == Array("after".utf8))
        #expect(sendAndWait(loop, recorded.link, command("SET", "k", "v")) == .status("OK"))
        finish(loop, recorded.link)
    }

    @Test func stalledRedisTimesOutTheCommandWithoutStallingTheLoop() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server, timeoutMilliseconds: 300)
        // A reply in time leaves the link alone, also once its deadline has passed.
        #expect(sendAndWait(loop, recorded.link, command("SET", "k", "v")) == .status("OK"))
        run(loop, milliseconds: 400)
        #expect(recorded.states == [.connecting, .connected])

        let ticker = LoopTimer(loop: loop)
        var ticks: [ContinuousClock.Instant] = []
        func tick() {
            ticks.append(.now)
            ticker.schedule(afterMilliseconds: 5) { tick() }
        }
        tick()
        server.pause()
        let sentAt = ContinuousClock.now
        var replies: [RedisReply] = []
        var repliedAt: ContinuousClock.Instant?
        recorded.link.send(command("GET", "k")) {
            replies.append($0)
            repliedAt = .now
        }
        wait(loop) { !replies.isEmpty }
        let elapsed = try #require(repliedAt) - sentAt
        #expect(replies == [.error("QUERYD-DISCONNECTED no reply from Redis within 300 ms")])
        #expect(elapsed >= .milliseconds(290) && elapsed < .milliseconds(1_000), "replied after \(elapsed)")
        #expect(recorded.states == [.connecting, .connected, .disconnected])
        // The loop kept turning while Redis was frozen: the 5 ms timer fired throughout.
        let during = ticks.filter { $0 >= sentAt }
        let gaps = zip(during, during.dropFirst()).map { $1 - $0 }
        #expect(during.count >= 20, "\(during.count) ticks")
        #expect(gaps.allSatisfy { $0 < .milliseconds(150) }, "longest gap \(gaps.max() ?? .zero)")
        // Still frozen: attempts connect (the kernel accepts) but their handshake times out; none is connected.
        run(loop, milliseconds: 700)
        #expect(!recorded.states.dropFirst(2).contains(.connected))
        #expect(recorded.states.count >= 5)
        server.resume()
        wait(loop) { recorded.link.state == .connected }
        #expect(recorded.link.reconnects == 1)
        #expect(sendAndWait(loop, recorded.link, command("GET", "k")) == .bulk(Array("v".utf8)))
        #expect(replies.count == 1)
        ticker.close()
        finish(loop, recorded.link)
    }

    @Test(arguments: [false, true])
    func unreachableAtStartRetriesUntilTheServerAppears(tcp: Bool) throws {
        let server = try RedisServerProcess(tcp: tcp, start: false)
        let loop = try makeLoop()
        let recorded = RecordedLink(
            loop: loop, endpoint: try RedisEndpoint(parsing: tcp ? try #require(server.tcpURL) : server.unixURL))
        recorded.link.subscribe([Array("c".utf8)])
        recorded.link.start()
        wait(loop) { recorded.states.count >= 6 }
        #expect(
            Array(recorded.states.prefix(6)) == [
                .connecting, .disconnected, .connecting, .disconnected, .connecting, .disconnected,
            ])
        #expect(
            recorded.link.lastFailure
                == (tcp
                    ? "command connection: Connection refused"
                    : "cannot connect the command connection: No such file or directory"))
        try server.start()
        wait(loop) { recorded.link.state == .connected }
        #expect(recorded.link.reconnects == 0)
        #expect(recorded.states.suffix(2) == [.connecting, .connected])
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "c", "x")) == .integer(1))
        finish(loop, recorded.link)
    }

    @Test func unresolvableHostKeepsRetrying() throws {
        let loop = try makeLoop()
        let recorded = RecordedLink(
            loop: loop, endpoint: try RedisEndpoint(parsing: "redis://nonexistent.invalid:6379"),
            timeoutMilliseconds: 300)
        recorded.link.start()
        wait(loop) { recorded.states.count >= 6 }
        #expect(
            Array(recorded.states.prefix(6)) == Array(repeating: [.connecting, .disconnected], count: 3).flatMap { $0 })
        let failure = try #require(recorded.link.lastFailure)
        #expect(
            failure.hasPrefix("cannot resolve nonexistent.invalid: ")
                || failure == "no handshake reply from Redis within 300 ms", "\(failure)")
        finish(loop, recorded.link)
    }

    @Test func stoppedLinkIsReleasedWithItsConnections() throws {
        let server = try RedisServerProcess()
        let loop = try makeLoop()
        weak var weakLink: RedisLink?
        weak var weakCommand: RedisConnection?
        weak var weakSubscriber: RedisConnection?
        do {
            let link = RedisLink(
                loop: loop, endpoint: try RedisEndpoint(parsing: server.unixURL), credentials: nil,
                reconnectDelays: testDelays)
            weakLink = link
            link.subscribe([Array("c".utf8)])
            link.start()
            wait(loop) { link.state == .connected }
            weakCommand = link.commandConnection
            weakSubscriber = link.subscriberConnection
            link.stop()
            link.stop()
            #expect(link.state == .disconnected)
        }
        runIterations(loop, 3)
        #expect(weakLink == nil)
        #expect(weakCommand == nil)
        #expect(weakSubscriber == nil)
        finish(loop)
    }

    @Test func connectionsKilledByRedisAreReplaced() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server, channels: ["ch"])
        #expect(try server.command(["CLIENT", "KILL", "TYPE", "pubsub"]) == ":1\r\n")
        wait(loop) { recorded.states.count == 5 }
        #expect(recorded.states == [.connecting, .connected, .disconnected, .connecting, .connected])
        #expect(recorded.link.lastFailure == "subscriber connection: connection lost")
        #expect(recorded.link.reconnects == 1)
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "ch", "x")) == .integer(1))
        #expect(try server.command(["CLIENT", "KILL", "TYPE", "normal"]) == ":1\r\n")
        wait(loop) { recorded.states.count == 8 }
        #expect(recorded.link.lastFailure == "command connection: Server closed the connection")
        #expect(recorded.link.reconnects == 2)
        finish(loop, recorded.link)
    }
}
