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
        // Kept for long by an observed query: drop the spare room the parser left in its objects
        // and arrays. An unobserved query's parsed data goes when the operation ends
        // (`dropParsedDataIfUnused`), so it is kept as it is until then.
        obtainActivity().parsedData = keepsParsedData ? data.compacted() : data
    }

    /// Stores `bytes`, a canonical encoding, as the query's data: copied only when they differ
    /// from the stored encoding (equal bytes are equal data, so an equal write keeps the encoding
    /// it shares). The parsed form is not made: a query that keeps it (see `keepsParsedData`)
    /// keeps `parsed`, the caller's value of the same data, when given; otherwise a kept one of
    /// other data is dropped, to be parsed from the new bytes by its next reader.
    func storeData(encoded bytes: UnsafeRawBufferPointer, parsed: JSONValue? = nil) {
        if let old = encoded, old.withUnsafeBytes({ $0.elementsEqual(bytes) }) { return }
        encoded?.deallocate()
        encoded = EncodedBytes(copying: bytes)
        markDataChanged()
        if let parsed, keepsParsedData {
            obtainActivity().parsedData = parsed.compacted()
        } else if keptParsedData != nil {
            obtainActivity().parsedData = JSONValue?.none
        }
    }

    /// Whether the query keeps its parsed data between operations: it has subscriptions, a
    /// running fetch, or pages.
    private var keepsParsedData: Bool { !subscriptions.isEmpty || run != nil || kind == .infinite }

    /// Drops the parsed data of a query that has no subscriptions, no running fetch and is not
    /// paged, keeping only its encoded bytes.
    func dropParsedDataIfUnused() {
        guard keptParsedData != nil, !keepsParsedData else { return }
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

    /// At most how many bytes `writeGetAnswer` writes (so exactly that much room may be set
    /// aside); nil when the query has no data or has left the cache (so a caller holding on to a
    /// query learns both with one call).
    public var getAnswerByteCount: Int? {
        guard !isForgotten, let encoded else { return nil }
        return encoded.count + Query.getAnswerFraming
    }

    /// Appends the `query.get` answer `{"data":…,"dataUpdatedAt":…}` to `out`, splicing the
    /// encoded data. Returns false (appending nothing) when the query has no data.
    public func writeGetAnswer(to out: inout [UInt8]) -> Bool {
        guard let room = encoded.map({ $0.count + Query.getAnswerFraming }) else { return false }
        out.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                // Safety: `room` bytes are free from `initialized` on, and the answer takes at most that.
                let start = buffer.baseAddress! + initialized
                let end = writeGetAnswer(at: start)
                assert(end - start <= room, "the answer fits the room set aside for it")
                initialized += end - start
            }
        }
        return true
    }

    /// Writes the `query.get` answer at `next`, which has room for `getAnswerByteCount` bytes
    /// (the query must have data); returns the address after it. Replies built in one pass over
    /// their memory (the cache-hit fast path) use this: each array append has a fixed cost well
    /// above copying a few dozen bytes.
    public func writeGetAnswer(at next: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard let encoded else { preconditionFailure("writeGetAnswer(at:) of a query without data") }
        let head = Query.getAnswerHead
        let member = Query.getAnswerMember
        var at = next
        at.initialize(from: head.utf8Start, count: head.utf8CodeUnitCount)
        at += head.utf8CodeUnitCount
        at = encoded.withUnsafeBytes { data in
            guard let source = data.baseAddress else { return at }
            UnsafeMutableRawPointer(at).copyMemory(from: source, byteCount: data.count)
            return at + data.count
        }
        at.initialize(from: member.utf8Start, count: member.utf8CodeUnitCount)
        at = TimeDigits.write(dataUpdatedAt, at: at + member.utf8CodeUnitCount)
        at.initialize(to: UInt8(ascii: "}"))
        return at + 1
    }

    /// The answer's bytes around the data, at most: the head, the member name, 20 characters of
    /// an Int64 and the closing brace.
    private static let getAnswerFraming = getAnswerHead.utf8CodeUnitCount + getAnswerMember.utf8CodeUnitCount + 21

    // Static strings: their bytes are appended as they are, with no `String` to copy from.
    private static let getAnswerHead: StaticString = #"{"data":"#
    private static let getAnswerMember: StaticString = #","dataUpdatedAt":"#
}
