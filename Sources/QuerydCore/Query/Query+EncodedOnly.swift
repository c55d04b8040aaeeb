// Keeping only the encoded form of an unused query's data.
//
// A query's data is held twice: parsed (what the engine reads, compares and projects) and encoded
// (what replies and pushes splice). For a query nobody observes, the parsed tree (a dictionary per
// object, a string per long string) is most of its memory and is rarely read again, so it is
// dropped; the first reader of `state` rebuilds it from the encoded bytes (the encoding is
// canonical, so parsing it back gives an equal value). `query.get` reads the bytes and never does.

import QuerydJSON

extension Query {
    /// Whether the query has data, without rebuilding the parsed form.
    public var hasData: Bool { dataIsEncodedOnly || storedState.data != nil }

    /// Drops the parsed data of a query that has no subscriptions, no running fetch and is not paged,
    /// keeping only its encoded bytes (made here if needed).
    func dropParsedDataIfUnused() {
        guard !dataIsEncodedOnly, subscriptions.isEmpty, run == nil, kind != .infinite,
            storedState.data != nil, encodedData != nil
        else { return }
        storedState.data = nil
        dataIsEncodedOnly = true
    }

    /// Parses the encoded bytes back into `storedState.data` (a reader of `state` needs the value).
    func restoreParsedData() {
        guard dataIsEncodedOnly else { return }
        dataIsEncodedOnly = false
        guard let bytes = cachedEncodedData else {
            preconditionFailure("a query keeps only encoded data but has no encoded bytes")
        }
        do {
            storedState.data = try JSONParser.parse(bytes, maxDepth: .max).compacted()
        } catch {
            preconditionFailure("the cache's own encoding of a query's data does not parse: \(error)")
        }
    }

    /// Sets `isInvalidated` without rebuilding the parsed data (only a flag changes). Returns false
    /// when the state was already invalidated.
    func markInvalidated() -> Bool {
        guard !storedState.isInvalidated else { return false }
        let oldValue = storedState
        storedState.isInvalidated = true
        stateChanged(from: oldValue)
        return true
    }
}
