// Write-behind persistence, the loop's side: the consumer of the engine's data changes collects the keys whose data
// changed or which left the cache (and whether the paused mutations changed), and hands them out in
// batches of encoded rows.
//
// Changes to the same key between two batches cost one row write. What a batch holds is read from
// the cache when the batch is taken: a key whose query has data becomes an upsert of a copy of its
// encoded bytes (never parsed), any other a delete. The rows are plain `Sendable` values, so the
// owner can write them on another thread (the daemon's store thread); a batch that failed to be
// written is put back with `putBack`, and the next batch reads those keys' current state again.

public import QuerydCore

/// A batch taken from a `PersistenceWriter`: the keys it covers and their rows.
public struct PersistenceBatch: Sendable {
    /// The keys whose rows these are (to put back if the write fails).
    public var keys: [QueryKey]
    /// One row per key, read from the cache when the batch was taken.
    public var rows: [StoreRow]
    /// The paused mutations' snapshot entries as canonical JSON text, when they changed since the
    /// last batch (they replace what the store holds); nil when they did not change.
    public var mutations: [[UInt8]]?
}

/// Collects a cache's changes to persist and turns them into batches of rows.
public final class PersistenceWriter: QueryCacheObserver {
    private unowned let cache: QueryCache
    private var pending = PendingKeys()
    /// The paused mutations changed since the last batch.
    private var mutationsChanged = false
    /// Called when a change arrives while nothing was pending: time to schedule a flush.
    public var onFirstChange: (() -> Void)?

    /// A writer for `cache`. It does not attach itself: the server's `dataObserver` hands it the changes.
    public init(cache: QueryCache) {
        self.cache = cache
    }

    /// The number of changes waiting for the next batch (keys, and the paused mutations as one).
    public var pendingCount: Int { pending.count + (mutationsChanged ? 1 : 0) }

    /// Records that the query's data changed.
    public func queryDataChanged(_ query: Query) {
        mark(query.key)
    }

    /// Records that the key left the cache.
    public func queryRemoved(_ key: QueryKey) {
        mark(key)
    }

    /// Records that the paused mutations changed: the next batch rewrites them all.
    public func pausedMutationsChanged() {
        let wasEmpty = pendingCount == 0
        mutationsChanged = true
        if wasEmpty { onFirstChange?() }
    }

    private func mark(_ key: QueryKey) {
        let wasEmpty = pendingCount == 0
        pending.insert(key)
        if wasEmpty { onFirstChange?() }
    }

    /// Takes up to `limit` pending keys and reads their rows from the cache now.
    public func takeBatch(limit: Int = .max) -> PersistenceBatch {
        let keys = pending.take(limit: limit)
        let rows = keys.map { key in
            let keyText = key.withCanonicalBytes { Array($0) }
            guard let stored = cache.persistedEncoding(of: key) else { return StoreRow(keyText: keyText, data: nil) }
            return StoreRow(
                keyText: keyText, data: stored.data, dataUpdatedAt: stored.dataUpdatedAt,
                dataUpdateCount: Int64(stored.dataUpdateCount))
        }
        var mutations: [[UInt8]]?
        if mutationsChanged {
            mutationsChanged = false
            mutations = (cache.attachedMutationCache?.dehydrateMutations() ?? []).map(\.encoded)
        }
        return PersistenceBatch(keys: keys, rows: rows, mutations: mutations)
    }

    /// Marks the changes of a batch that was not written as pending again (without `onFirstChange`:
    /// the owner that failed to write schedules its own retry).
    public func putBack(_ keys: [QueryKey], mutations: Bool = false) {
        for key in keys { pending.insert(key) }
        if mutations { mutationsChanged = true }
    }

    /// Writes every pending key's current state to `store` in one transaction, on this thread,
    /// and returns how many rows were written. On failure nothing is written and the keys stay pending.
    @discardableResult
    public func flush(into store: QueryStore) throws(PersistenceError) -> Int {
        let batch = takeBatch()
        do {
            try store.write(rows: batch.rows, mutations: batch.mutations)
        } catch {
            putBack(batch.keys, mutations: batch.mutations != nil)
            throw error
        }
        return batch.rows.count
    }
}
