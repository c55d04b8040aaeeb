// Fetcher registration and what a connection's departure does: its fetchers go, their attempts in
// flight fail (and are retried elsewhere when retry allows), its subscriptions end.

public import QuerydJSON

extension QueryCache {
    /// Registers `connection` as the fetcher for keys under `prefix`. Fetches waiting for such a
    /// fetcher start their attempt at once, unless `startWaiting` is false (the server then calls
    /// `startFetches(waitingFor:)` after answering the registration, so that answer comes first).
    public func registerFetcher(
        connection: ConnectionID, prefix: [JSONValue], exact: Bool, cancellable: Bool, defaults: QueryOptions,
        startWaiting: Bool = true
    ) -> FetcherID {
        let id = makeFetcherID()
        let fetcher = Fetcher(
            id: id, connection: connection, prefix: prefix, exact: exact, cancellable: cancellable,
            defaults: defaults)
        registry.add(fetcher)
        report(.registered(fetcher.registration))
        if startWaiting { startFetches(waitingFor: id) }
        return id
    }

    /// Starts the attempts of fetches that were waiting for a fetcher `id` serves, in key order: at
    /// once when at most `sweepSliceSize` fetches wait, otherwise as a sweep (`StartWaitingSweep`).
    public func startFetches(waitingFor id: FetcherID) {
        guard let fetcher = registry.member(id), !queriesWaitingForFetcher.isEmpty else { return }
        guard queriesWaitingForFetcher.count <= sweepSliceSize else {
            sweeps.append(StartWaitingSweep(fetcher: id))
            return
        }
        var waiting: [Query] = []
        queriesWaitingForFetcher.forEach { if fetcher.serves($0.key) { waiting.append($0) } }
        for query in waiting.sorted(by: { $0.key < $1.key }) { startIfWaiting(query) }
    }

    /// Starts the next attempt of `query` if its fetch still waits for a fetcher.
    func startIfWaiting(_ query: Query) {
        guard queriesWaitingForFetcher.contains(query), let run = query.run, case .waitingForFetcher = run.phase
        else { return }
        startAttempt(query, run)
    }

    /// Removes a fetcher registration of `connection`. Attempts already sent to it may still be answered.
    public func unregisterFetcher(_ id: FetcherID, connection: ConnectionID) throws(CacheFailure) {
        guard let fetcher = registry.member(id), fetcher.connection == connection else {
            throw .unknownID("fetcher", id.rawValue)
        }
        _ = registry.remove(id)
        report(.unregistered(fetcher.registration))
    }

    /// Forgets everything that belonged to a closed connection.
    public func connectionClosed(_ connection: ConnectionID) {
        for fetcher in registry.removeAll(of: connection) { report(.unregistered(fetcher.registration)) }
        // Many attempts in flight fail in slices (`LostAttemptsSweep`).
        let lost = attemptsByConnection.removeValue(forKey: connection) ?? ShardedSet()
        if lost.count > sweepSliceSize {
            sweeps.append(LostAttemptsSweep(Array(lost)))
        } else {
            for attempt in lost.sorted(by: { $0.rawValue < $1.rawValue }) {
                attemptFailed(attempt, error: AttemptError.fetcherDisconnected)
            }
        }
        unfocusedConnections.remove(connection)
        // Many subscriptions end in slices (QueryCache+Sweeps.swift).
        let owned = Array(subscriptionIDsByConnection[connection] ?? [])
        guard owned.count <= sweepSliceSize else {
            unsubscribeInSlices(owned, of: connection)
            return
        }
        for id in owned.sorted(by: { $0.rawValue < $1.rawValue }) {
            try? unsubscribe(id, connection: connection)
        }
    }

    /// Drops an ended attempt from `attemptsByConnection` (and the connection's entry once empty).
    func forgetAttempt(_ attempt: AttemptID, of connection: ConnectionID) {
        guard attemptsByConnection[connection]?.remove(attempt) != nil,
            attemptsByConnection[connection]?.isEmpty == true
        else { return }
        attemptsByConnection[connection] = nil
    }
}
