// Connection life-cycle events and the reconnect policy.

public import QuerydJSON

// FoundationEssentials where it exists (Linux): full Foundation loads ICU, which costs every program that
// links the client about 6 ms of start-up (measured on `queryd`, release build).
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A change of the client's connection to the daemon.
public enum ConnectionEvent: Sendable, Hashable {
    /// The first connection is open.
    case connected
    /// The connection dropped; calls in flight failed with ``QueryClientError/connectionLost(_:)`` (its text
    /// is the daemon's `$/closing` reason when it sent one), except idempotent reads, which wait to be re-sent.
    case disconnected(QueryClientError)
    /// The client waits `delay` seconds before reconnect attempt `attempt` (1, 2, ...).
    case reconnecting(attempt: Int, delay: TimeInterval)
    /// A new connection is open, negotiated, and every fetcher, mutator and subscription was registered again;
    /// the waiting idempotent calls are re-sent next.
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

/// How the client reconnects after losing the daemon, and how it waits for one that is starting
/// (``QueryClient/connect(waitingUpTo:)``).
public struct ReconnectPolicy: Sendable, Hashable {
    /// Reconnect at all.
    public var isEnabled: Bool
    /// The first delay before trying again, in seconds.
    public var initialDelay: TimeInterval
    /// The longest delay between tries (delays double up to it), in seconds.
    public var maxDelay: TimeInterval
    /// Each delay is drawn from `delay * (1 - jitter) ... delay` (0 to 1), so clients that lost the same
    /// daemon do not all come back at the same instant.
    public var jitter: Double

    /// A policy from its parts.
    public init(
        isEnabled: Bool = true, initialDelay: TimeInterval = 0.05, maxDelay: TimeInterval = 1, jitter: Double = 0.5
    ) {
        self.isEnabled = isEnabled
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// The delay before the next try after `failures` failed tries: `initialDelay * 2^failures`, capped at
    /// `maxDelay`, less a random part of up to `jitter` of it.
    public func delay(afterFailedAttempts failures: Int, random: Double = Double.random(in: 0...1)) -> TimeInterval {
        let doubled = initialDelay * Double(1 << min(failures, 32))
        let capped = min(doubled, maxDelay)
        return capped * (1 - min(max(jitter, 0), 1) * random)
    }

    /// Reconnect with 50 ms to 1 s delays, jittered by up to half.
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
