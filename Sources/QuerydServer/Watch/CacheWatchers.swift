// Every `cache.watch` in the daemon: the engine's cache events are handed to each watch, and the
// waiting events of a watch are written to its connection when that connection's output has room
// (below `outboundHoldBytes`, the mark where pushes are held for a slow reader).

import QuerydCore

/// The cache watches of every connection, by watch id.
struct CacheWatchers {
    private var lastID = 0
    private var watches: [Int: CacheWatch] = [:]

    /// Whether no connection watches the cache.
    var isEmpty: Bool { watches.isEmpty }

    /// Starts a watch for `connection`.
    mutating func add(connection: ConnectionID, filter: QueryFilter, withData: Bool) -> CacheWatch {
        lastID += 1
        let watch = CacheWatch(id: lastID, connection: connection, filter: filter, withData: withData)
        watches[lastID] = watch
        return watch
    }

    /// Ends watch `id` of `connection`; false when it has no such watch.
    mutating func remove(_ id: Int, connection: ConnectionID) -> Bool {
        guard let watch = watches[id], watch.connection == connection else { return false }
        watches[id] = nil
        return true
    }

    /// Ends every watch of `connection`.
    mutating func removeAll(of connection: ConnectionID) {
        watches = watches.filter { $0.value.connection != connection }
    }

    /// The watches, in the order they were made.
    var all: [CacheWatch] { watches.values.sorted { $0.id < $1.id } }
}

extension Server {
    /// Hands a cache event to every watch; their connections flush soon.
    func deliver(_ event: CacheEvent) {
        for watch in cacheWatchers.all {
            watch.add(event)
            if watch.hasEvents, let session = session(for: watch.connection) { markDirty(session) }
        }
    }

    /// Writes the waiting events of every watch whose connection's output has room.
    func writeWatchEvents() {
        guard !cacheWatchers.isEmpty else { return }
        for watch in cacheWatchers.all where watch.hasEvents {
            guard let session = session(for: watch.connection),
                session.pendingOutputBytes < configuration.outboundHoldBytes
            else { continue }
            session.outbox.appendLine { watch.writeEvents(cache: cache, to: &$0) }
            counters.pushes &+= 1
            markDirty(session)
        }
    }

    /// Turns the engine's cache events on while a watch exists.
    func updateCacheEventReporting() {
        cache.reportsCacheEvents = !cacheWatchers.isEmpty
    }
}
