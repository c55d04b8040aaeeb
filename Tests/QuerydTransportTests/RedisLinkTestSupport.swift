// Helpers of the Redis link tests: a link on a test server with short timeouts, commands as strings, waiting for
// replies and states while the loop runs.
import QuerydTestSupport
import Testing

@testable import QuerydTransport

/// Short, exact reconnection delays for tests: 10 ms, doubling up to 80 ms, no jitter.
let testDelays = ReconnectDelays(firstMilliseconds: 10, factor: 2, maximumMilliseconds: 80, jitter: 0)

/// A link on `server`'s Unix socket that records every state it reports.
final class RecordedLink {
    let link: RedisLink
    var states: [RedisLinkState] = []
    var messages: [(channel: String, payload: [UInt8])] = []

    init(
        loop: EventLoop, endpoint: RedisEndpoint, credentials: RedisCredentials? = nil,
        timeoutMilliseconds: Int = 2_000
    ) {
        link = RedisLink(
            loop: loop, endpoint: endpoint, credentials: credentials, commandTimeoutMilliseconds: timeoutMilliseconds,
            reconnectDelays: testDelays)
        link.onStateChange = { [unowned self] in states.append($0) }
        link.onMessage = { [unowned self] channel, payload in
            messages.append((String(decoding: channel, as: UTF8.self), payload))
        }
    }

    convenience init(
        loop: EventLoop, server: RedisServerProcess, credentials: RedisCredentials? = nil,
        timeoutMilliseconds: Int = 2_000
    ) throws {
        self.init(
            loop: loop, endpoint: try RedisEndpoint(parsing: server.unixURL), credentials: credentials,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Starts the link and runs the loop until it is connected.
    func startConnected(_ loop: EventLoop, sourceLocation: SourceLocation = #_sourceLocation) {
        link.start()
        spin(loop, sourceLocation: sourceLocation) { link.state == .connected }
    }
}

/// A command written as strings.
func command(_ words: String...) -> [[UInt8]] {
    words.map { Array($0.utf8) }
}

/// Sends `arguments` and runs the loop until the reply arrives; records an issue if it comes more than once.
func sendAndWait(
    _ loop: EventLoop, _ link: RedisLink, _ arguments: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation
) -> RedisReply? {
    var replies: [RedisReply] = []
    link.send(arguments) { replies.append($0) }
    spin(loop, sourceLocation: sourceLocation) { !replies.isEmpty }
    runIterations(loop, 3)
    #expect(replies.count == 1, "one reply per command", sourceLocation: sourceLocation)
    return replies.first
}

/// Stops the link, lets the adapter's poll handles close, and closes the loop (checking nothing is left).
func finish(_ loop: EventLoop, _ links: RedisLink..., sourceLocation: SourceLocation = #_sourceLocation) {
    for link in links { link.stop() }
    runIterations(loop, 3)
    finish(loop, sourceLocation: sourceLocation)
}
