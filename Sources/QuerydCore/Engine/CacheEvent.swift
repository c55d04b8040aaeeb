// What happened in the cache, for whoever watches all of it (`cache.watch`: the devtools page,
// `queryd watch --all`): queries added, changed and removed, registrations made and gone, fetches
// and mutations started and settled.
//
// Events are `cacheEvent` effects, reported only while `QueryCache.reportsCacheEvents` is on (a
// watch exists), so an unwatched cache pays one flag test per change. A query event carries the
// query itself: a watcher reads its state when it writes the event, so events coalesce per query.

public import QuerydJSON

/// A fetcher or mutator registration, as a watcher is shown it.
public struct Registration: Sendable, Equatable {
    public enum Role: String, Sendable {
        case fetcher, mutator
    }

    public let role: Role
    public let id: Int
    public let connection: ConnectionID
    public let prefix: [JSONValue]
    public let exact: Bool
    /// Fetchers only: whether it honours `$/cancelRequest`.
    public let cancellable: Bool
    /// Requests sent to it and not answered yet (when the event was made).
    public let inFlight: Int
}

/// One thing that happened in the cache.
public enum CacheEvent {
    /// A query entered the cache.
    case queryAdded(Query)
    /// A query's state changed.
    case queryChanged(Query)
    /// The query with this key left the cache.
    case queryRemoved(QueryKey)
    /// A fetch of the query with this key started (not when a caller joined the one running).
    case fetchStarted(QueryKey)
    /// The fetch of the query with this key ended: with data (`succeeded`), or not.
    case fetchSettled(QueryKey, succeeded: Bool)
    /// A fetcher or mutator registered.
    case registered(Registration)
    /// A fetcher or mutator registration ended (unregistered, or its connection closed).
    case unregistered(Registration)
    /// A mutation was submitted.
    case mutationStarted(MutationState)
    /// A mutation settled (its state says how).
    case mutationSettled(MutationState)
}

extension QueryCache {
    /// Reports `event` when a watcher wants cache events.
    func report(_ event: @autoclosure () -> CacheEvent) {
        if reportsCacheEvents { effects.append(.cacheEvent(event())) }
    }

    /// The state a watcher or `queries.list` is shown of a query: the query-level view with its
    /// count of subscriptions.
    public func listedState(of query: Query) -> QueryResult {
        var view = result(of: query, staleTime: .milliseconds(0))
        query.dropParsedDataIfUnused()
        view.observers = query.subscriptions.count
        return view
    }

    /// The state a cache watch is shown of a query: as `listedState`, but `isStale` is TanStack's
    /// `Query.isStale()` (what the `stale` filter tests): stale for an enabled subscription's
    /// staleTime, or, with none, when it has no data or is invalidated.
    public func watchedState(of query: Query) -> QueryResult {
        var view = listedState(of: query)
        view.isStale = query.isStaleForFilters(now: now)
        return view
    }

    /// The watched states of the queries `filter` matches, in key order.
    public func watchedStates(_ filter: QueryFilter) -> [QueryResult] {
        matching(filter).map(watchedState)
    }

    /// Every fetcher registration, in registration order.
    public var fetcherRegistrations: [Registration] {
        registry.members.map(\.registration)
    }
}

extension Fetcher {
    var registration: Registration {
        Registration(
            role: .fetcher, id: id.rawValue, connection: connection, prefix: prefix, exact: exact,
            cancellable: cancellable, inFlight: inFlight)
    }
}

extension Mutator {
    var registration: Registration {
        Registration(
            role: .mutator, id: id.rawValue, connection: connection, prefix: prefix, exact: exact, cancellable: false,
            inFlight: inFlight)
    }
}

extension MutationCache {
    /// Every mutator registration, in registration order.
    public var mutatorRegistrations: [Registration] {
        registry.members.map(\.registration)
    }
}
