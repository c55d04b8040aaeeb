// Every `cache.watch` in the daemon: the engine's cache events are handed to each watch, and the
// waiting events of a watch are written to its connection when that connection's output has room
// (below `outboundHoldBytes`, the mark where pushes are held for a slow reader).

import QuerydCore

/// The cache watches of every connection, in the order they were made (so by id).
struct CacheWatchers {
    private var lastID = 0
    private(set) var all: [CacheWatch] = []

    /// Whether no connection watches the cache.
    var isEmpty: Bool { all.isEmpty }

    /// Starts a watch for `connection`.
    mutating func add(connection: ConnectionID, filter: QueryFilter, withData: Bool) -> CacheWatch {
        lastID += 1
        let watch = CacheWatch(id: lastID, connection: connection, filter: filter, withData: withData)
        all.append(watch)
        return watch
    }

    /// Ends watch `id` of `connection`; false when it has no such watch.
    mutating func remove(_ id: Int, connection: ConnectionID) -> Bool {
        guard let index = all.firstIndex(where: { $0.id == id && $0.connection == connection }) else { return false }
        all.remove(at: index)
        return true
    }

    /// Ends every watch of `connection`.
    mutating func removeAll(of connection: ConnectionID) {
        all.removeAll { $0.connection == connection }
    }
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
