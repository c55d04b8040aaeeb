// A write of data as its canonical encoding: the bytes are stored as they are, and the reply is
// made from them, so nothing is parsed and no side object holds the parsed value while the write
// runs. `query.set` takes this way for every query that is not infinite: the wire fast path with
// the bytes from the request line, `set(key:_:updatedAt:ifVersion:)` with the bytes it encodes.

import QuerydJSON

extension QueryCache {
    /// Writes data given as its canonical encoding `dataBytes` (compact JSON exactly as
    /// `JSONValue.encoded` writes it) to the query whose key has the canonical bytes `keyBytes` (as
    /// `query(canonicalKeyBytes:)` takes them), now, as `set(key:_:updatedAt:)` writes `.data`: the
    /// same reducer action, effects, events, versions and gc scheduling, and equal bytes keep the
    /// stored encoding. Returns the query-level state `state(of:)` gives, read from the query when
    /// the reply is written (nothing is copied). Returns nil, having changed nothing
    /// the general write would not change the same way, when the write must take that way: the
    /// query is infinite (its data must have the pages' shape) or the data is longer than
    /// `maxDataBytes` allows (refused there).
    public func set(
        canonicalKey keyBytes: UnsafeRawBufferPointer, encodedData dataBytes: UnsafeRawBufferPointer
    ) -> WrittenState? {
        let key = QueryKey(canonicalBytes: keyBytes)
        guard dataBytes.count + key.canonicalByteCount <= maxDataBytes else { return nil }
        // The clock is read once: every part of the write happens at the same time.
        let now = self.now
        let query = obtainWrittenQuery(key, now: now)
        guard query.kind != .infinite else { return nil }
        storeWrite(encoded: dataBytes, parsed: nil, to: query, at: now)
        collectWhenUnused(query, restart: false, now: now)
        return WrittenState(
            query: query, isStale: query.isStale(staleTime: .milliseconds(0), now: now), encodedEpoch: epoch.encoded)
    }

    /// Stores the data encoded as `bytes` (`parsed`, when the caller has it, is that data) as a
    /// manual write at `time` to `query`, which is not infinite, and publishes the change, as
    /// `dispatchWrite` does a written value; returns the length of the data and key together,
    /// changing nothing, when that is over `maxDataBytes`. A fetch in flight keeps running, and a
    /// cancel reverts to this write.
    @discardableResult
    func storeWrite(encoded bytes: UnsafeRawBufferPointer, parsed: JSONValue?, to query: Query, at time: Int64)
        -> Int?
    {
        let length = bytes.count + query.key.canonicalByteCount
        guard length <= maxDataBytes else { return length }
        query.reduceManualWrite(encodedData: bytes, parsed: parsed, at: time)
        reportDataChanged(query)
        report(.queryChanged(query))
        publish(query)
        if let run = query.run {
            run.revertState = query.state
            run.revertState.fetchStatus = .idle
        }
        return nil
    }

    /// The query-level state after a write of `data` (as `state(of:)` gives it), as a view of its
    /// own for callers that keep it (the reply is written from the query's encoding). Read from
    /// the query's fields: assembling its `QueryState` for `stateView` would copy them once more.
    func writtenState(of query: Query, data: JSONValue) -> QueryResult {
        let extras = query.extras
        return QueryResult(
            key: query.key, status: query.status, fetchStatus: query.fetchStatus, data: data,
            dataUpdatedAt: query.dataUpdatedAt, dataUpdateCount: query.dataUpdateCount, error: extras?.fields.error,
            errorUpdatedAt: extras?.fields.errorUpdatedAt ?? 0, errorUpdateCount: extras?.fields.errorUpdateCount ?? 0,
            failureCount: extras?.fields.failureCount ?? 0, failureReason: extras?.fields.failureReason,
            isInvalidated: query.isInvalidated, isStale: query.isStale(staleTime: .milliseconds(0), now: now),
            isPlaceholderData: false, version: query.version, observers: nil, infinite: nil,
            encodedData: query.encodedData, dataVersion: query.dataVersion, encodedEpoch: epoch.encoded)
    }
}
