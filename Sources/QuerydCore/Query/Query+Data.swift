// A query's data: always its canonical encoding, and the parsed value only while it is in use.
//
// Replies and pushes splice the encoded bytes; the engine reads, compares and projects parsed
// values. For a query nobody observes the parsed tree (a dictionary per object, a string per long
// string) would be most of its memory and is rarely read again, so it is not kept: the first
// reader of `state` parses the bytes back (the encoding is canonical, so parsing gives an equal
// value) and the parsed form is dropped again when the operation ends. `query.get` never parses.

import QuerydJSON

extension Query {
    /// Whether the query has data, without parsing it.
    public var hasData: Bool { encoded != nil }

    /// The parsed data (nil: no data). Parses the encoded bytes when the parsed form is not kept,
    /// and keeps it until `dropParsedDataIfUnused`.
    var parsedData: JSONValue? {
        if let kept = keptParsedData { return kept }
        guard let encoded else { return nil }
        let parsed: JSONValue
        do {
            parsed = try encoded.withUnsafeBytes { try JSONParser.parse($0, maxDepth: .max) }.compacted()
        } catch {
            preconditionFailure("the cache's own encoding of a query's data does not parse: \(error)")
        }
        obtainActivity().parsedData = parsed
        return parsed
    }

    /// Stores `data` as the query's data: re-encoded (and kept parsed, compacted) only when it
    /// differs from the current data, so an equal write keeps the encoding it shares.
    func storeData(_ data: JSONValue?) {
        guard let data else {
            guard let old = encoded else { return }
            old.deallocate()
            encoded = nil
            if keptParsedData != nil { obtainActivity().parsedData = JSONValue?.none }
            return
        }
        if encoded != nil, parsedData == data { return }
        encoded?.deallocate()
        encoded = EncodedBytes(encoding: data)
        markDataChanged()
        // Kept for long: drop the spare room the parser left in its objects and arrays.
        obtainActivity().parsedData = data.compacted()
    }

    /// Drops the parsed data of a query that has no subscriptions, no running fetch and is not
    /// paged, keeping only its encoded bytes.
    func dropParsedDataIfUnused() {
        guard keptParsedData != nil, subscriptions.isEmpty, run == nil, kind != .infinite else { return }
        obtainActivity().parsedData = JSONValue?.none
        settleActivity()
    }

    /// The bytes of the encoded data and the canonical key together (nil: no data), which every
    /// state carrying the data repeats.
    var dataAndKeyByteCount: Int? { encoded.map { $0.count + key.canonicalByteCount } }

    /// A copy of the encoded data (nil: no data), for a result that is encoded later.
    var encodedData: [UInt8]? { encoded?.array }

    /// The identity of the stored encoding: the same across writes of equal data (structural
    /// sharing keeps it), different after the data changed — until the old block's address is
    /// reused, so compare it only across writes of equal data.
    public var encodedDataAddress: UnsafeRawPointer? { encoded?.address }

    /// The encoded `{"data":…,"dataUpdatedAt":…}` answer of `query.get`, or nil when there is no data.
    /// Made on each call; `writeGetAnswer(to:)` avoids the copy.
    public var getAnswer: [UInt8]? {
        var bytes: [UInt8] = []
        return writeGetAnswer(to: &bytes) ? bytes : nil
    }

    /// About how many bytes `writeGetAnswer(to:)` appends, for reserving capacity once; nil when
    /// the query has no data or has left the cache (so a caller holding on to a query learns
    /// both with one call).
    public var getAnswerByteCount: Int? {
        guard !isForgotten, let encoded else { return nil }
        return encoded.count + 40
    }

    /// Appends the `query.get` answer `{"data":…,"dataUpdatedAt":…}` to `out`, splicing the
    /// encoded data. Returns false (appending nothing) when the query has no data.
    public func writeGetAnswer(to out: inout [UInt8]) -> Bool {
        guard let encoded else { return false }
        Query.getAnswerHead.withUTF8Buffer { out.append(contentsOf: $0) }
        encoded.withUnsafeBytes { out.append(contentsOf: $0) }
        // The tail `,"dataUpdatedAt":…}` is assembled on the stack and appended at once (each
        // append has a fixed cost well above copying a few dozen bytes).
        let member = Query.getAnswerMember
        let room = member.utf8CodeUnitCount + 21
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { tail in
            // Safety: the member name, at most 20 digits and a brace fill at most `room` bytes.
            let base = tail.baseAddress!
            base.initialize(from: member.utf8Start, count: member.utf8CodeUnitCount)
            let end = JSONWriter.writeInteger(dataUpdatedAt, at: base + member.utf8CodeUnitCount)
            end.initialize(to: UInt8(ascii: "}"))
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: end + 1 - base))
        }
        return true
    }

    // Static strings: their bytes are appended as they are, with no `String` to copy from.
    private static let getAnswerHead: StaticString = #"{"data":"#
    private static let getAnswerMember: StaticString = #","dataUpdatedAt":"#
}
