// Helpers of the Redis link tests: a link on a test server with short timeouts, commands as strings, waiting for
// replies and states while the loop runs.
import CLibUV
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
    /// Runs after each state is recorded.
    var onState: ((RedisLinkState) -> Void)?
    /// Runs after each message is recorded.
    var onMessage: (() -> Void)?

    init(
        loop: EventLoop, endpoint: RedisEndpoint, credentials: RedisCredentials? = nil,
        timeoutMilliseconds: Int = 2_000
    ) {
        link = RedisLink(
            loop: loop, endpoint: endpoint, credentials: credentials, commandTimeoutMilliseconds: timeoutMilliseconds,
            reconnectDelays: testDelays)
        link.onStateChange = { [unowned self] in
            states.append($0)
            onState?($0)
        }
        link.onMessage = { [unowned self] channel, payload in
            messages.append((String(decoding: channel, as: UTF8.self), payload))
            onMessage?()
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

/// A new loop and a link on `server`'s socket, subscribed to `channels`, started and connected.
func connectedLink(
    to server: RedisServerProcess, channels: [String] = [], timeoutMilliseconds: Int = 2_000,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> (EventLoop, RecordedLink) {
    let loop = try makeLoop()
    let recorded = try RecordedLink(loop: loop, server: server, timeoutMilliseconds: timeoutMilliseconds)
    if !channels.isEmpty { recorded.link.subscribe(channels.map { Array($0.utf8) }) }
    recorded.startConnected(loop, sourceLocation: sourceLocation)
    return (loop, recorded)
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

/// Runs the loop (blocking in its poll, woken at least every 2 ms) until `condition` holds or `seconds` pass.
/// Unlike `spin`, it does not busy-loop: the Redis tests wait for timeouts and reconnections of hundreds of ms.
@discardableResult
func wait(
    _ loop: EventLoop, seconds: Int64 = 20, sourceLocation: SourceLocation = #_sourceLocation,
    until condition: () -> Bool
) -> Bool {
    let heartbeat = LoopTimer(loop: loop)
    defer { heartbeat.close() }
    func beat() { heartbeat.schedule(afterMilliseconds: 2) { beat() } }
    beat()
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        if ContinuousClock.now > deadline {
            Issue.record("condition not reached within \(seconds) s", sourceLocation: sourceLocation)
            return false
        }
        _ = uv_run(loop.rawLoop, UV_RUN_ONCE)
    }
    return true
}

/// Runs the loop for `milliseconds` of wall time.
func run(_ loop: EventLoop, milliseconds: Int64) {
    let end = ContinuousClock.now + .milliseconds(milliseconds)
    wait(loop) { ContinuousClock.now >= end }
}

/// The subscriber count Redis reports for `channel` (`PUBSUB NUMSUB`), read over the helper's own connection.
func subscriberCount(_ server: RedisServerProcess, _ channel: String) throws -> String {
    try server.command(["PUBSUB", "NUMSUB", channel])
}
