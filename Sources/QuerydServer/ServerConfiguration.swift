// The daemon's limits, switches and identity (version, epoch, node), as given on the `queryd serve`
// command line, and the errors a request gets when it would pass a limit (-32006) or arrives at
// shutdown (-32003), each saying whether to retry.

import QuerydCore
import QuerydJSON
public import QuerydRPC

/// Settings of a `Server`; every limit is a command-line flag with the default shown here.
public struct ServerConfiguration: Sendable {
    /// The longest message line accepted, in bytes; a longer one gets -32600 and the connection closes.
    public var maxMessageBytes = 16 * 1024 * 1024
    /// The deepest JSON nesting accepted in a message.
    public var maxDepth = 128
    /// Connections served at once; further ones are told so and closed.
    public var maxConnections = 1024
    /// Subscriptions one connection may hold at once (`--max-subscriptions-per-connection`).
    public var maxSubscriptionsPerConnection = 10_000
    /// Fetcher and mutator registrations one connection may hold at once
    /// (`--max-registrations-per-connection`).
    public var maxRegistrationsPerConnection = 1_000
    /// Requests of one connection that may wait for an answer at once (`query.fetch` waiting on a
    /// fetch, say) (`--max-pending-requests-per-connection`).
    public var maxPendingRequestsPerConnection = 10_000
    /// Output bytes one connection may have waiting to be written; past it the client is not
    /// reading and its connection is closed (`--max-outbound-bytes`).
    public var maxOutboundBytes = 64 * 1024 * 1024
    /// Members of one batch (`--max-batch`); a larger batch is refused whole.
    public var maxBatch = 1_000
    /// While more than this many bytes wait in a connection's socket queue, its new output stays
    /// in the session (where `query.changed` pushes coalesce) instead of being queued behind them.
    public var outboundHoldBytes = 256 * 1024
    /// While more than this many output bytes wait for a connection, the daemon stops reading its
    /// requests (backpressure); it reads again once they are written.
    public var readPauseBytes = 1024 * 1024
    /// How long a server-to-client `fetch` or `mutate` attempt may go unanswered before it fails
    /// with -32004 and its fetcher or mutator gets `$/cancelRequest`, unless the query's or
    /// mutation's own `options.timeout` says otherwise; nil for no limit (`--attempt-timeout-ms`,
    /// 0 for none).
    public var attemptTimeoutMs: Int64? = 60_000
    /// Serve `clock.advance` / `clock.now` over a manual clock.
    public var manualClock = false
    /// Serve the JSON-RPC conformance fixtures `test.*`.
    public var testMethods = false
    /// The version reported by `server.hello`.
    public var version = "0.1.0"
    /// The cache generation named by `server.hello` and every state (`epoch`): random at each
    /// start unless the daemon passes one it kept (with `--persist`).
    public var epoch = CacheEpoch.random().text
    /// This daemon's name in `server.hello` (`node`): `<host name>:<pid>` unless configured.
    public var node = NodeName.hostAndProcess()

    public init() {}
}

extension RPCError {
    /// The -32006 reply for a request that would pass a limit:
    /// `{"code":-32006,"message":"Limit exceeded","data":{"limit":"<flag>","max":n,"retryable":b}}`.
    public static func limitExceeded(_ flag: String, max: Int) -> RPCError {
        RPCError(
            .limitExceeded,
            data: [
                "limit": .string(flag), "max": .number(JSONNumber(max)),
                "retryable": .bool(retryableLimits.contains(flag)),
            ])
    }

    /// The limits a request may pass when sent again unchanged: other connections close, the
    /// connection's own waiting requests settle. The others hold until the client changes
    /// something (releases a subscription, sends a smaller batch).
    static let retryableLimits: Set<String> = ["max-connections", "max-pending-requests-per-connection"]

    /// The -32003 for a request waiting at shutdown or arriving during it: retryable once the
    /// client has reconnected to a daemon that is running.
    public static let shutdown = RPCError(.cancelledByServer, data: ["reason": "shutdown", "retryable": true])
}
