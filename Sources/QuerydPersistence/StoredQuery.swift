// What the store keeps of one query, and the changes a batch write applies.

public import QuerydCore
public import QuerydJSON

/// The persisted part of a query: its successful data and when and how often it was written.
public struct StoredQuery: Sendable, Equatable {
    /// The query's key (stored as its canonical JSON text).
    public var key: QueryKey
    /// The last successful data.
    public var data: JSONValue
    /// When `data` was written, in milliseconds since the Unix epoch.
    public var dataUpdatedAt: Int64
    /// How many successful updates the query had when it was written.
    public var dataUpdateCount: Int

    /// Creates an entry.
    public init(key: QueryKey, data: JSONValue, dataUpdatedAt: Int64, dataUpdateCount: Int) {
        self.key = key
        self.data = data
        self.dataUpdatedAt = dataUpdatedAt
        self.dataUpdateCount = dataUpdateCount
    }
}

/// One change of a batch written by `QueryStore.write(batch:)`.
public enum StoreChange: Sendable, Equatable {
    /// Insert the entry, or replace the one with the same key.
    case upsert(StoredQuery)
    /// Remove the entry for the key (nothing happens when there is none).
    case delete(QueryKey)
}

/// What `QueryStore.restore(maxAge:buster:now:)` found.
public struct RestoredQueries: Sendable, Equatable {
    /// The entries to hydrate, ordered by key text.
    public var entries: [StoredQuery]
    /// Entries dropped (and deleted) because their data was older than the maximum age.
    public var expired: Int
    /// Rows dropped (and deleted) because their key or data could not be parsed.
    public var unreadable: Int
    /// Why the whole store was emptied before reading, if it was (a different buster).
    public var wipeReason: String?

    /// Creates a report.
    public init(entries: [StoredQuery], expired: Int, unreadable: Int, wipeReason: String?) {
        self.entries = entries
        self.expired = expired
        self.unreadable = unreadable
        self.wipeReason = wipeReason
    }
}
