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

    /// Calls `body` with the canonical encoding of `value`, written into the cache's scratch
    /// buffer (so a write allocates no buffer of its own, and one that grows only while it is
    /// longer than any written before).
    func withEncoding<R>(of value: JSONValue, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var buffer: [UInt8] = []
        swap(&buffer, &encodingScratch)
        buffer.removeAll(keepingCapacity: true)
        value.write(to: &buffer)
        let result = buffer.withUnsafeBytes(body)
        // A buffer made for an unusually long value is not kept.
        if buffer.capacity <= Self.encodingScratchCapacity { swap(&buffer, &encodingScratch) }
        return result
    }

    /// The most bytes the scratch buffer of `withEncoding` keeps between writes.
    static let encodingScratchCapacity = 64 * 1024

    /// The query-level state after a write of `data` (as `state(of:)` gives it), as a view of its
    /// own for callers that keep it (the reply is written from the query's encoding).
    func writtenState(of query: Query, data: JSONValue) -> QueryResult {
        stateView(
            of: query, state: query.stateWithoutData, data: data,
            isStale: query.isStale(staleTime: .milliseconds(0), now: now), encodedData: query.encodedData)
    }
}
