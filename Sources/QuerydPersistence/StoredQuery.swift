// What the store keeps of one query, what a restore found, and the rows a batch write applies.

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

/// What `QueryStore.restore(maxAge:buster:now:maxDepth:each:)` did besides handing out entries.
public struct RestoreCounts: Sendable, Equatable {
    /// Entries handed out.
    public var read: Int
    /// Entries dropped (and deleted) because their data was older than the maximum age.
    public var expired: Int
    /// Rows dropped (and deleted) because their key or data could not be parsed.
    public var unreadable: Int
    /// Why the whole store was emptied before reading, if it was (a different buster or schema).
    public var wipeReason: String?
}

/// One change as the store writes it: the key's canonical JSON text and either the data's canonical
/// JSON text with its update time and count (upsert) or nothing (delete). Plain bytes, so the loop
/// can hand a batch of them to the store's writer thread.
public struct StoreRow: Sendable, Equatable {
    /// The key's canonical JSON text.
    public var keyText: [UInt8]
    /// The data's canonical JSON text; nil deletes the key's row.
    public var data: [UInt8]?
    /// When the data was written, in milliseconds since the Unix epoch.
    public var dataUpdatedAt: Int64
    /// How many successful updates the query had when it was written.
    public var dataUpdateCount: Int64

    /// A row to upsert (with `data`) or delete (without).
    public init(keyText: [UInt8], data: [UInt8]?, dataUpdatedAt: Int64 = 0, dataUpdateCount: Int64 = 0) {
        self.keyText = keyText
        self.data = data
        self.dataUpdatedAt = dataUpdatedAt
        self.dataUpdateCount = dataUpdateCount
    }
}
