// The reply to a write that is not infinite: the query's state as `QueryCache.state(of:)` shows it
// (with `isStale` taken when the write ended), read from the query itself when the reply is
// written, so answering a write copies none of the data, key or epoch into a view of its own.

public import QuerydJSON

/// A written query's query-level state, borrowed from the query; write it before the query
/// changes again (the `query.set` reply is written right after the write).
public struct WrittenState: StateObjectSource {
    let query: Query
    public let isStale: Bool
    /// The cache's epoch as a JSON string (`CacheEpoch.encoded`, shared).
    let encodedEpoch: [UInt8]

    public var key: QueryKey { query.key }
    public var status: QueryStatus { query.status }
    public var fetchStatus: FetchStatus { query.fetchStatus }
    public var dataUpdatedAt: Int64 { query.dataUpdatedAt }
    public var dataUpdateCount: Int { query.dataUpdateCount }
    public var error: JSONValue? { query.extras?.fields.error }
    public var errorUpdatedAt: Int64 { query.extras?.fields.errorUpdatedAt ?? 0 }
    public var errorUpdateCount: Int { query.extras?.fields.errorUpdateCount ?? 0 }
    public var failureCount: Int { query.extras?.fields.failureCount ?? 0 }
    public var failureReason: JSONValue? { query.extras?.fields.failureReason }
    public var isInvalidated: Bool { query.isInvalidated }
    public var isPlaceholderData: Bool { false }
    public var version: UInt64 { query.version }
    public var observers: Int? { nil }
    public var infinite: InfiniteFlags? { nil }
    public var dataVersion: UInt64? { query.hasData ? query.dataVersion : nil }

    /// Appends the state object's JSON, the same bytes `QueryResult.write(to:)` writes for the
    /// query's `state(of:)`, splicing the query's stored encoding of its data.
    public func write(to buffer: inout [UInt8]) {
        encodedEpoch.withUnsafeBytes { epoch in
            guard let encoded = query.encoded else {
                return writeStateObject(to: &buffer, shape: .standard, data: nil, epoch: epoch)
            }
            encoded.withUnsafeBytes { writeStateObject(to: &buffer, shape: .standard, data: $0, epoch: epoch) }
        }
    }
}
