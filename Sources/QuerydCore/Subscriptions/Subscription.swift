// One subscriber's view of a query (TanStack's QueryObserver): its own options, and the last
// result it was sent, so an unchanged result is never pushed twice.

import QuerydJSON

/// Identifies a subscription for the daemon's lifetime (never reused).
public struct SubscriptionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// Identifies a client connection; the server assigns these and tells the cache when one closes.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// A subscription of one connection to one query.
final class Subscription {
    let id: SubscriptionID
    let connection: ConnectionID
    var query: Query
    var options: ResolvedOptions
    /// What the subscriber was last sent (nil until the subscribe reply is made); shared with the
    /// subscriptions that were sent the same view.
    var lastView: QueryView?
    /// The last good `select` projection, shown while a select error is reported.
    var lastSelected: JSONValue?
    /// Fires when the data turns stale, so the `isStale` flip is pushed.
    var staleTimer: TimerHandle?
    var staleDeadline: Int64?
    /// The next `refetchInterval` poll.
    var intervalTimer: TimerHandle?
    /// The data of the last query this subscription showed data for (placeholder "previous").
    var previousData: JSONValue?
    /// The query's update counts when this subscription attached (for `isFetchedAfterMount`).
    var baselineUpdateCount = 0

    init(id: SubscriptionID, connection: ConnectionID, query: Query, options: ResolvedOptions) {
        self.id = id
        self.connection = connection
        self.query = query
        self.options = options
    }
}
