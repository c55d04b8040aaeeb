// AUTH on the Redis link against a redis-server with requirepass: the right password connects both connections,
// a wrong or missing one keeps the link disconnected and retrying, never connected.
import QuerydTestSupport
import Testing

@testable import QuerydTransport

@Suite(.serialized) struct RedisLinkAuthTests {
    @Test(arguments: [nil, "default"])
    func rightPasswordConnects(user: String?) throws {
        let server = try RedisServerProcess(password: "s3cret pass")
        let loop = try makeLoop()
        let recorded = try RecordedLink(
            loop: loop, server: server, credentials: RedisCredentials(user: user, password: "s3cret pass"))
        recorded.link.subscribe([Array("c".utf8)])
        recorded.startConnected(loop)
        #expect(recorded.states == [.connecting, .connected])
        #expect(sendAndWait(loop, recorded.link, command("SET", "k", "v")) == .status("OK"))
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "c", "m")) == .integer(1))
        wait(loop) { recorded.messages.count == 1 }
        #expect(recorded.link.lastFailure == nil)
        finish(loop, recorded.link)
    }

    @Test func wrongPasswordStaysDisconnectedAndRetries() throws {
        let server = try RedisServerProcess(password: "right")
        let loop = try makeLoop()
        let recorded = try RecordedLink(
            loop: loop, server: server, credentials: RedisCredentials(user: nil, password: "wrong"))
        recorded.link.start()
        wait(loop) { recorded.states.count >= 8 }
        #expect(
            Array(recorded.states.prefix(8)) == Array(repeating: [.connecting, .disconnected], count: 4).flatMap { $0 })
        #expect(!recorded.states.contains(.connected))
        #expect(recorded.link.reconnects == 0)
        let failure = try #require(recorded.link.lastFailure)
        #expect(
            failure.hasSuffix("connection: AUTH failed: WRONGPASS invalid username-password pair or user is disabled."))
        finish(loop, recorded.link)
        #expect(recorded.states.last == .disconnected)
    }

    @Test func missingPasswordIsRefusedByTheHandshakePing() throws {
        let server = try RedisServerProcess(password: "right")
        let loop = try makeLoop()
        let recorded = try RecordedLink(loop: loop, server: server)
        recorded.link.start()
        wait(loop) { recorded.states.count >= 4 }
        #expect(Array(recorded.states.prefix(4)) == [.connecting, .disconnected, .connecting, .disconnected])
        #expect(
            recorded.link.lastFailure?.hasSuffix("connection: PING failed: NOAUTH Authentication required.") == true)
        finish(loop, recorded.link)
    }
}
