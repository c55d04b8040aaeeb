// The Redis link's command connection against a real redis-server: replies of every type, binary-safe bulks,
// database selection, refused commands, and commands sent while not connected.
import QuerydTestSupport
import Testing

@testable import QuerydTransport

@Suite(.serialized) struct RedisLinkCommandTests {
    @Test func connectsAndReportsConnectingThenConnected() throws {
        let server = try RedisServerProcess()
        let loop = try makeLoop()
        let recorded = try RecordedLink(loop: loop, server: server)
        #expect(recorded.link.state == .disconnected)
        recorded.startConnected(loop)
        #expect(recorded.states == [.connecting, .connected])
        #expect(recorded.link.reconnects == 0)
        finish(loop, recorded.link)
        #expect(recorded.states == [.connecting, .connected, .disconnected])
    }

    @Test func repliesOfEveryType() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server)
        let link = recorded.link
        #expect(sendAndWait(loop, link, command("SET", "k", "v")) == .status("OK"))
        #expect(sendAndWait(loop, link, command("GET", "k")) == .bulk(Array("v".utf8)))
        #expect(sendAndWait(loop, link, command("GET", "missing")) == .null)
        #expect(sendAndWait(loop, link, command("INCR", "n")) == .integer(1))
        #expect(sendAndWait(loop, link, command("INCRBY", "n", "-5")) == .integer(-4))
        #expect(sendAndWait(loop, link, command("RPUSH", "l", "a", "b")) == .integer(2))
        #expect(
            sendAndWait(loop, link, command("LRANGE", "l", "0", "-1"))
                == .array([.bulk(Array("a".utf8)), .bulk(Array("b".utf8))]))
        #expect(sendAndWait(loop, link, command("LRANGE", "none", "0", "-1")) == .array([]))
        #expect(
            sendAndWait(loop, link, command("MGET", "k", "missing"))
                == .array([.bulk(Array("v".utf8)), .null]))
        #expect(sendAndWait(loop, link, command("SET", "e", "")) == .status("OK"))
        #expect(sendAndWait(loop, link, command("GET", "e")) == .bulk([]))
        #expect(
            sendAndWait(loop, link, command("INCR", "k"))
                == .error("ERR value is not an integer or out of range"))
        #expect(sendAndWait(loop, link, command("NOSUCHCOMMAND"))?.isDisconnected == false)
        finish(loop, link)
    }

    @Test func bulkStringsAreBinarySafe() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server)
        let key: [UInt8] = [0, 10, 13, 0xFF, 0x20]
        let value: [UInt8] = Array(0...255) + [0, 0, 13, 10, 13, 10]
        #expect(sendAndWait(loop, recorded.link, [Array("SET".utf8), key, value]) == .status("OK"))
        #expect(sendAndWait(loop, recorded.link, [Array("GET".utf8), key]) == .bulk(value))
        #expect(sendAndWait(loop, recorded.link, [Array("STRLEN".utf8), key]) == .integer(262))
        finish(loop, recorded.link)
    }

    @Test func repliesComeBackInOrderForPipelinedCommands() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server)
        var replies: [RedisReply] = []
        for _ in 0..<1_000 {
            recorded.link.send(command("INCR", "counter")) { replies.append($0) }
        }
        spin(loop) { replies.count == 1_000 }
        #expect(replies == (1...1_000).map { .integer(Int64($0)) })
        finish(loop, recorded.link)
    }

    @Test func selectsTheDatabaseOfTheEndpoint() throws {
        let server = try RedisServerProcess()
        let loop = try makeLoop()
        let recorded = RecordedLink(loop: loop, endpoint: try RedisEndpoint(parsing: server.unixURL + "?db=3"))
        recorded.startConnected(loop)
        #expect(sendAndWait(loop, recorded.link, command("SET", "in3", "x")) == .status("OK"))
        #expect(try server.command(["SELECT", "3"]) == "+OK\r\n")
        #expect(try server.command(["EXISTS", "in3"]) == ":0\r\n")  // the helper's own connection is on db 0
        #expect(try server.command(["DBSIZE"]) == ":0\r\n")
        #expect(sendAndWait(loop, recorded.link, command("DBSIZE")) == .integer(1))
        finish(loop, recorded.link)
    }

    @Test func tcpEndpointWorksLikeTheSocket() throws {
        let server = try RedisServerProcess(tcp: true)
        let loop = try makeLoop()
        let recorded = RecordedLink(loop: loop, endpoint: try RedisEndpoint(parsing: try #require(server.tcpURL)))
        recorded.startConnected(loop)
        #expect(sendAndWait(loop, recorded.link, command("SET", "t", "1")) == .status("OK"))
        #expect(try server.command(["GET", "t"]) == "$1\r\n1\r\n")
        finish(loop, recorded.link)
    }

    @Test func tcpHostNameIsLookedUpThenConnected() throws {
        let server = try RedisServerProcess(tcp: true)
        let loop = try makeLoop()
        let port = try #require(server.port)
        let recorded = RecordedLink(loop: loop, endpoint: try RedisEndpoint(parsing: "redis://localhost:\(port)/2"))
        recorded.startConnected(loop)
        #expect(recorded.link.lookupsInFlight == 0)
        #expect(sendAndWait(loop, recorded.link, command("SET", "t", "1")) == .status("OK"))
        #expect(try server.command(["SELECT", "2"]) == "+OK\r\n")
        #expect(recorded.states == [.connecting, .connected])
        finish(loop, recorded.link)
    }

    @Test func commandsThatWouldChangeTheConnectionAreRefused() throws {
        let server = try RedisServerProcess()
        let (loop, recorded) = try connectedLink(to: server)
        for words in [["SUBSCRIBE", "c"], ["monitor"], ["CLIENT", "REPLY", "OFF"], ["HELLO", "3"], ["RESET"]] {
            let reply = sendAndWait(loop, recorded.link, words.map { Array($0.utf8) })
            guard case .error(let message)? = reply else {
                Issue.record("\(words): \(String(describing: reply))")
                continue
            }
            #expect(message.hasPrefix("QUERYD-REFUSED \(words[0].lowercased())"))
        }
        #expect(sendAndWait(loop, recorded.link, []) == .error("QUERYD-REFUSED an empty command"))
        #expect(sendAndWait(loop, recorded.link, command("PING")) == .status("PONG"))
        #expect(recorded.states == [.connecting, .connected])
        finish(loop, recorded.link)
    }

    @Test func sendWhileNotConnectedFailsOnTheNextTurnNotInside() throws {
        let server = try RedisServerProcess()
        let loop = try makeLoop()
        let recorded = try RecordedLink(loop: loop, server: server)
        var replies: [RedisReply] = []
        recorded.link.send(command("PING")) { replies.append($0) }
        #expect(replies.isEmpty)
        runIterations(loop, 2)
        #expect(replies == [.error("QUERYD-DISCONNECTED the link to Redis is not connected")])
        #expect(replies[0].isDisconnected)
        recorded.startConnected(loop)
        recorded.link.stop()
        recorded.link.send(command("PING")) { replies.append($0) }
        #expect(replies.count == 1)
        runIterations(loop, 2)
        #expect(replies.count == 2)
        #expect(replies[1] == .error("QUERYD-DISCONNECTED the link to Redis is not connected"))
        finish(loop, recorded.link)
    }
}
