// Write-behind persistence: the cache's observer collects the keys whose data changed or which
// left the cache, and `flush` writes their current state to the store in one transaction.
//
// Changes to the same key between two flushes cost one row write. What a flush writes is read
// from the cache at flush time: a key whose query has data is upserted, any other is deleted.
// A failed flush keeps its keys pending, so the next flush retries them. The owner decides when
// to flush (the daemon: `flushInterval` after the first change, and at shutdown) through
// `onFirstChange`; a crash loses at most what changed since the last successful flush.

public import QuerydCore

/// Mirrors a cache's successful data into a `QueryStore`, in batches.
public final class PersistenceWriter: QueryCacheObserver {
    /// The store written to.
    public let store: QueryStore
    private unowned let cache: QueryCache
    private var pending: Set<QueryKey> = []
    /// Called when a change arrives while nothing was pending: time to schedule a flush.
    public var onFirstChange: (() -> Void)?
    /// Changes written by successful flushes so far.
    public private(set) var writtenCount = 0

    /// A writer for `cache` into `store`. It does not attach itself: set `cache.observer`.
    public init(store: QueryStore, cache: QueryCache) {
        self.store = store
        self.cache = cache
    }

    /// The number of keys waiting for the next flush.
    public var pendingCount: Int { pending.count }

    /// Records that the query's data changed.
    public func queryDataChanged(_ query: Query) {
        mark(query.key)
    }

    /// Records that the key left the cache.
    public func queryRemoved(_ key: QueryKey) {
        mark(key)
    }

    private func mark(_ key: QueryKey) {
        let wasEmpty = pending.isEmpty
        pending.insert(key)
        if wasEmpty { onFirstChange?() }
    }

    /// Writes every pending key's current state in one transaction and returns how many changes
    /// were written. On failure nothing is written and the keys stay pending.
    @discardableResult
    public func flush() throws(PersistenceError) -> Int {
        guard !pending.isEmpty else { return 0 }
        var batch: [StoreChange] = []
        batch.reserveCapacity(pending.count)
        for key in pending {
            if let state = cache.persistedState(of: key) {
                batch.append(
                    .upsert(
                        StoredQuery(
                            key: key, data: state.data, dataUpdatedAt: state.dataUpdatedAt,
                            dataUpdateCount: state.dataUpdateCount)))
            } else {
                batch.append(.delete(key))
            }
        }
        try store.write(batch: batch)
        pending.removeAll(keepingCapacity: true)
        writtenCount += batch.count
        return batch.count
    }
}
