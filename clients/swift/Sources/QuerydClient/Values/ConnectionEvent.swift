// Connection life-cycle events and the reconnect policy.

public import Foundation
public import QuerydJSON

/// A change of the client's connection to the daemon.
public enum ConnectionEvent: Sendable, Hashable {
    /// The first connection is open.
    case connected
    /// The connection dropped; calls in flight failed with ``QueryClientError/connectionLost(_:)``.
    case disconnected(QueryClientError)
    /// A new connection is open and every fetcher, mutator and subscription was registered again.
    case reconnected
}

/// What a subscription's stream delivers.
public enum SubscriptionEvent: Sendable, Hashable {
    /// The subscription's current state (the first is the answer to `query.subscribe`; after a
    /// reconnect, the answer to the new subscribe).
    case state(QueryState)
    /// The connection dropped; states resume after the reconnect.
    case connectionLost(QueryClientError)
}

/// How the client reconnects after losing the daemon.
public struct ReconnectPolicy: Sendable, Hashable {
    /// Reconnect at all.
    public var isEnabled: Bool
    /// The first delay before trying again, in seconds.
    public var initialDelay: TimeInterval
    /// The longest delay between tries (delays double up to it), in seconds.
    public var maxDelay: TimeInterval

    /// A policy from its parts.
    public init(isEnabled: Bool = true, initialDelay: TimeInterval = 0.05, maxDelay: TimeInterval = 1) {
        self.isEnabled = isEnabled
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// Reconnect with 50 ms to 1 s delays.
    public static let standard = ReconnectPolicy()
    /// Never reconnect.
    public static let disabled = ReconnectPolicy(isEnabled: false)
}

/// An open subscription made with ``QueryClient/subscribe(_:options:)``.
public struct QuerySubscription: Sendable {
    /// This client's id for the subscription (stable across reconnects).
    public let id: Int
    /// The key, as JSON.
    public let key: JSONValue
    /// The state the daemon answered the subscribe with (also the stream's first event).
    public let initialState: QueryState
    /// States in order, and connection losses. Ends when the subscription is closed.
    public let events: AsyncStream<SubscriptionEvent>
}
