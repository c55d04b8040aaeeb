// Pub/sub on the Redis link against a real redis-server: delivery on subscribed channels only, subscriptions made
// before start or while connected, unsubscribe stopping delivery at once.
import QuerydTestSupport
import Testing

@testable import QuerydTransport

@Suite(.serialized) struct RedisLinkPubSubTests {
    @Test func deliversMessagesOfSubscribedChannelsOnly() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server, channels: ["news", "bin"])
        // Connected means the subscriptions are confirmed: Redis counts the subscriber already.
        #expect(try subscriberCount(server, "news") == "*2\r\n$4\r\nnews\r\n:1\r\n")
        let payload: [UInt8] = [0, 13, 10, 0xFF, 0]
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "news", "hello")) == .integer(1))
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "other", "ignored")) == .integer(0))
        #expect(sendAndWait(loop, recorded.link, [Array("PUBLISH".utf8), Array("bin".utf8), payload]) == .integer(1))
        wait(loop) { recorded.messages.count == 2 }
        run(loop, milliseconds: 20)
        #expect(recorded.messages.map(\.channel) == ["news", "bin"])
        #expect(recorded.messages.map(\.payload) == [Array("hello".utf8), payload])
        finish(loop, recorded.link)
    }

    @Test func subscribingWhileConnectedTakesEffect() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server)
        recorded.link.subscribe([Array("late".utf8)])
        recorded.link.subscribe([Array("late".utf8)])  // already kept: nothing more is sent
        wait(loop) { (try? subscriberCount(server, "late")) == "*2\r\n$4\r\nlate\r\n:1\r\n" }
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "late", "m")) == .integer(1))
        wait(loop) { !recorded.messages.isEmpty }
        run(loop, milliseconds: 20)
        #expect(recorded.messages.map(\.channel) == ["late"])
        #expect(recorded.messages.map(\.payload) == [Array("m".utf8)])
        finish(loop, recorded.link)
    }

    @Test func unsubscribeStopsDeliveryAtOnce() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server, channels: ["a", "b"])
        // Published before UNSUBSCRIBE reaches Redis: the message may be on its way, and still is not delivered.
        recorded.link.send(command("PUBLISH", "a", "1")) { _ in }
        recorded.link.unsubscribe([Array("a".utf8), Array("never-subscribed".utf8)])
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "b", "2")) == .integer(1))
        wait(loop) { (try? subscriberCount(server, "a")) == "*2\r\n$1\r\na\r\n:0\r\n" }
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "a", "3")) == .integer(0))
        wait(loop) { recorded.messages.count == 1 }
        run(loop, milliseconds: 20)
        #expect(recorded.messages.map(\.channel) == ["b"])
        #expect(recorded.messages.map(\.payload) == [Array("2".utf8)])
        #expect(try subscriberCount(server, "b") == "*2\r\n$1\r\nb\r\n:1\r\n")
        // Unsubscribing from the last channel leaves the connection usable for later subscriptions.
        recorded.link.unsubscribe([Array("b".utf8)])
        wait(loop) { (try? subscriberCount(server, "b")) == "*2\r\n$1\r\nb\r\n:0\r\n" }
        recorded.link.subscribe([Array("c".utf8)])
        wait(loop) { (try? subscriberCount(server, "c")) == "*2\r\n$1\r\nc\r\n:1\r\n" }
        #expect(sendAndWait(loop, recorded.link, command("PUBLISH", "c", "4")) == .integer(1))
        wait(loop) { recorded.messages.count == 2 }
        #expect(recorded.messages.map(\.channel) == ["b", "c"])
        #expect(recorded.states == [.connecting, .connected])
        finish(loop, recorded.link)
    }
}
