// Start-up hydration: read the store and restore every entry into the cache (stale, idle).

public import QuerydCore

/// What a start-up restore did, for the daemon's log.
public struct RestoreReport: Sendable, Equatable {
    /// Entries read from the store.
    public var read: Int
    /// Entries hydrated into the cache (the others met newer data already cached).
    public var restored: Int
    /// Entries dropped for being older than the maximum age.
    public var expired: Int
    /// Rows dropped because they could not be parsed.
    public var unreadable: Int
    /// Why the store was emptied, if it was (another buster or schema).
    public var wipeReason: String?

    /// Creates a report.
    public init(read: Int, restored: Int, expired: Int, unreadable: Int, wipeReason: String?) {
        self.read = read
        self.restored = restored
        self.expired = expired
        self.unreadable = unreadable
        self.wipeReason = wipeReason
    }
}

extension QueryCache {
    /// Restores every entry of `store` that is at most `maxAge` ms old (nil: any age) and was
    /// written under `buster`, at the cache's current time, with `restore(key:data:...)`'s rules.
    /// Entries are hydrated one by one as they are read, into the compact (encoded) layout.
    public func restore(from store: QueryStore, maxAge: Int64?, buster: String, maxDepth: Int = 512)
        throws(PersistenceError) -> RestoreReport
    {
        var restored = 0
        let counts = try store.restore(maxAge: maxAge, buster: buster, now: clock.now, maxDepth: maxDepth) {
            entry in
            if restore(
                key: entry.key, data: entry.data, dataUpdatedAt: entry.dataUpdatedAt,
                dataUpdateCount: entry.dataUpdateCount)
            {
                restored += 1
            }
        }
        return RestoreReport(
            read: counts.read, restored: restored, expired: counts.expired, unreadable: counts.unreadable,
            wipeReason: counts.wipeReason)
    }
}
