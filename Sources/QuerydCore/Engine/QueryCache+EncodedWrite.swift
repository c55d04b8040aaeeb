// `query.set` of data given as its canonical encoding (the write fast path reads key and data
// straight from the request line): the same write as `set(key:_:updatedAt:)` of `.data`, without
// building the key's or the data's values, parsing the data or encoding it again.

extension QueryCache {
    /// Writes data given as its canonical encoding `dataBytes` (compact JSON exactly as
    /// `JSONValue.encoded` writes it) to the query whose key has the canonical bytes `keyBytes` (as
    /// `query(canonicalKeyBytes:)` takes them), now, as `set(key:_:updatedAt:)` writes `.data`: the
    /// same reducer action, effects, events, versions and gc scheduling, and equal bytes keep the
    /// stored encoding. Returns the query-level state `state(of:)` gives, with the data left
    /// encoded (`data` nil; it is written from the encoding). Returns nil, having changed nothing
    /// the general write would not change the same way, when the write must take that way: the
    /// query is infinite (its data must have the pages' shape) or the data is longer than
    /// `maxDataBytes` allows (refused there).
    public func set(
        canonicalKey keyBytes: UnsafeRawBufferPointer, encodedData dataBytes: UnsafeRawBufferPointer
    ) -> QueryResult? {
        let key = QueryKey(canonicalBytes: keyBytes)
        guard dataBytes.count + key.canonicalByteCount <= maxDataBytes else { return nil }
        let query = obtainQuery(key, options: resolve(QueryOptions(), for: key, defaultRetry: 3))
        guard query.kind != .infinite else { return nil }
        query.reduceManualWrite(encodedData: dataBytes, at: now)
        reportDataChanged(query)
        report(.queryChanged(query))
        publish(query)
        if let run = query.run {
            run.revertState = query.state
            run.revertState.fetchStatus = .idle
        }
        collectWhenUnused(query, restart: false)
        var result = stateView(
            of: query, isStale: query.isStale(staleTime: .milliseconds(0), now: now), parsingData: false)
        result.encodedData = query.encodedData
        query.dropParsedDataIfUnused()
        return result
    }
}
