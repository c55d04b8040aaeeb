// Stopping the Redis link from inside each of its callbacks (replies, state changes, messages) and closing the loop
// under a running link: every outstanding command answered once, no reconnection after, no handle left behind.
import QuerydTestSupport
import Testing

@testable import QuerydTransport

@Suite(.serialized) struct RedisLinkStopTests {
    static let stopped = RedisReply.error("QUERYD-DISCONNECTED the link was stopped")

    @Test func stopInsideAReplyCallback() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server)
        var replies: [RedisReply] = []
        recorded.link.send(command("PING")) {
            replies.append($0)
            recorded.link.stop()
        }
        recorded.link.send(command("PING")) { replies.append($0) }
        recorded.link.send(command("PING")) { replies.append($0) }
        wait(loop) { replies.count == 3 }
        run(loop, milliseconds: 50)
        #expect(replies == [.status("PONG"), Self.stopped, Self.stopped])
        #expect(recorded.states == [.connecting, .connected, .disconnected])
        finish(loop, recorded.link)
    }

    @Test(arguments: [RedisLinkState.connecting, .connected])
    func stopWhenAStateIsReported(_ state: RedisLinkState) throws {
        let server = try RedisServerProcess()
        let loop = try makeLoop()
        let recorded = try RecordedLink(loop: loop, server: server)
        recorded.link.subscribe([Array("c".utf8)])
        recorded.onState = { [unowned recorded] reported in if reported == state { recorded.link.stop() } }
        recorded.link.start()
        run(loop, milliseconds: 100)
        #expect(
            recorded.states
                == (state == .connecting ? [.connecting, .disconnected] : [.connecting, .connected, .disconnected]))
        #expect(recorded.link.commandConnection == nil)
        // Redis lists one client: the helper's own connection asking.
        #expect(try server.command(["CLIENT", "LIST"]).split(separator: "id=").count == 2)
        finish(loop, recorded.link)
    }

    @Test func stopWhenDisconnectedIsReportedAfterAKill() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server, channels: ["c"])
        recorded.onState = { [unowned recorded] reported in if reported == .disconnected { recorded.link.stop() } }
        var replies: [RedisReply] = []
        server.pause()
        recorded.link.send(command("PING")) {
            replies.append($0)
            recorded.link.stop()
        }
        run(loop, milliseconds: 10)
        server.kill()
        wait(loop) { !replies.isEmpty }
        try server.start()
        run(loop, milliseconds: 100)
        #expect(replies.count == 1)
        #expect(replies.first?.isDisconnected == true)
        #expect(recorded.states == [.connecting, .connected, .disconnected])
        finish(loop, recorded.link)
    }

    @Test func stopInsideAMessageCallback() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server, channels: ["c"])
        recorded.onMessage = { [unowned recorded] in recorded.link.stop() }
        var replies: [RedisReply] = []
        for _ in 0..<3 {
            recorded.link.send(command("PUBLISH", "c", "m")) { replies.append($0) }
        }
        wait(loop) { replies.count == 3 }
        run(loop, milliseconds: 50)
        #expect(recorded.messages.count == 1)
        // The message may overtake the replies of the PUBLISH commands (they come on the other connection).
        #expect(replies.allSatisfy { $0 == Self.stopped || $0 == .integer(1) })
        #expect(recorded.states == [.connecting, .connected, .disconnected])
        finish(loop, recorded.link)
    }

    @Test func closingTheLoopStopsARunningLinkAndAnswersItsCommands() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server)
        server.pause()
        var replies: [RedisReply] = []
        recorded.link.send(command("PING")) { replies.append($0) }
        recorded.link.send(command("PING")) { replies.append($0) }
        finish(loop)
        #expect(replies == [Self.stopped, Self.stopped])
        #expect(recorded.states == [.connecting, .connected, .disconnected])
        server.resume()
    }
}
