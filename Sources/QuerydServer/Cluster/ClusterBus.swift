// What the cluster layer needs from its link to Redis, as a protocol: the server knows no I/O, and
// the executable satisfies it with `RedisLink` (QuerydTransport, hiredis on the loop).

/// A Redis reply as the cluster layer reads it (RESP2's reply kinds).
public indirect enum ClusterReply: Sendable, Equatable {
    case status(String), error(String), integer(Int64), bulk([UInt8]), null, array([ClusterReply])
}

/// Whether the link to Redis is up (the `state` of `server.stats`'s `cluster` object).
public enum ClusterLinkState: String, Sendable, Equatable {
    case connecting, connected, disconnected
}

/// A link to one Redis: commands with one reply each, and Pub/Sub messages; everything on the
/// loop thread. The link reconnects by itself (with backoff) and re-subscribes its channels.
public protocol ClusterBus: AnyObject {
    /// Whether the link is up now.
    var linkState: ClusterLinkState { get }
    /// How many times the link came back after being lost.
    var reconnects: Int { get }
    /// Why the last connection attempt or connection failed, if one did.
    var lastFailure: String? { get }
    /// Called on the loop whenever `linkState` changes.
    var onLinkStateChange: ((ClusterLinkState) -> Void)? { get set }
    /// Called on the loop for each Pub/Sub message on a subscribed channel.
    var onMessage: ((_ channel: [UInt8], _ payload: [UInt8]) -> Void)? { get set }
    /// Starts connecting.
    func start()
    /// Closes the link for good.
    func stop()
    /// Sends one command; `reply` is called exactly once, with `.error` when the link is down, drops
    /// the command or times it out.
    func send(_ arguments: [[UInt8]], reply: @escaping (ClusterReply) -> Void)
    /// Subscribes to `channels` (kept across reconnects).
    func subscribe(_ channels: [[UInt8]])
    /// Calls `body` on the loop every `milliseconds` until `stop()`.
    func every(milliseconds: Int, _ body: @escaping () -> Void)
}
