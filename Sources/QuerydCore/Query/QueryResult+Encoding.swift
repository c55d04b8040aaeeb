// Writes a QueryResult as the protocol's state object, in canonical member order (sorted by
// name, as JSONValue's encoder would), splicing the query's pre-encoded data when it has it.

public import QuerydJSON

/// Which members a state object carries: protocol 1's (`data`, no `dataVersion`), or, for the
/// `meta` and `patch` push modes, `dataVersion` with or without `data`.
public enum StateShape: Sendable, Hashable {
    case standard
    case withDataVersion
    case withoutData

    var hasData: Bool { self != .withoutData }
    var hasDataVersion: Bool { self != .standard }
}

extension QueryResult {
    /// Appends the state object's JSON to `buffer`.
    public func write(to buffer: inout [UInt8]) {
        write(to: &buffer, shape: .standard)
    }

    /// Appends the state object's JSON, with the members of `shape`, to `buffer`. The members whose
    /// size varies (data, error, failure reason) are encoded first when they are not already; then
    /// the whole object is written in one pass into room set aside for it (an append per member
    /// cost more than the rest of a `query.set`'s reply).
    public func write(to buffer: inout [UInt8], shape: StateShape) {
        let dataValue: [UInt8]? = shape.hasData ? (encodedData ?? data?.encoded) : nil
        let errorValue = error?.encoded
        let failureValue = failureReason?.encoded
        let room =
            StateWriter.fixedRoom + (dataValue?.count ?? 0) + (errorValue?.count ?? 0) + (failureValue?.count ?? 0)
            + key.canonicalByteCount + encodedEpoch.count
        buffer.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { free, initialized in
                // Safety: `room` bytes are free from `initialized` on: the variable parts are
                // counted exactly, and `fixedRoom` covers every name, separator and fixed-size value.
                let start = free.baseAddress! + initialized
                var writer = StateWriter(at: start)
                writeMembers(to: &writer, shape: shape, data: dataValue, error: errorValue, failure: failureValue)
                assert(writer.at - start <= room, "the state fits the room set aside for it")
                initialized += writer.at - start
            }
        }
    }

    /// The members, in canonical order (sorted by name). Each member after the first is written
    /// with its separator, quoted name and colon as one literal.
    private func writeMembers(
        to writer: inout StateWriter, shape: StateShape, data: [UInt8]?, error: [UInt8]?, failure: [UInt8]?
    ) {
        writer.open()
        if let data {
            writer.bytes(#""data":"#, data)
            writer.int(#","dataUpdateCount":"#, Int64(dataUpdateCount))
        } else {
            writer.int(#""dataUpdateCount":"#, Int64(dataUpdateCount))
        }
        writer.int(#","dataUpdatedAt":"#, dataUpdatedAt)
        if shape.hasDataVersion, let dataVersion {
            writer.int(#","dataVersion":"#, Int64(truncatingIfNeeded: dataVersion))
        }
        writer.bytes(#","epoch":"#, encodedEpoch)
        writer.bytesOrNull(#","error":"#, error)
        writer.int(#","errorUpdateCount":"#, Int64(errorUpdateCount))
        writer.int(#","errorUpdatedAt":"#, errorUpdatedAt)
        writer.int(#","failureCount":"#, Int64(failureCount))
        writer.bytesOrNull(#","failureReason":"#, failure)
        writer.literal(#","fetchStatus":"#, fetchStatus.quoted)
        if let infinite {
            writer.bool(#","hasNextPage":"#, infinite.hasNextPage)
            writer.bool(#","hasPreviousPage":"#, infinite.hasPreviousPage)
        }
        writer.bool(#","isError":"#, isError)
        if let infinite {
            writer.bool(#","isFetchNextPageError":"#, infinite.isFetchNextPageError)
            writer.bool(#","isFetchPreviousPageError":"#, infinite.isFetchPreviousPageError)
        }
        writer.bool(#","isFetched":"#, isFetched)
        writer.bool(#","isFetching":"#, isFetching)
        if let infinite {
            writer.bool(#","isFetchingNextPage":"#, infinite.isFetchingNextPage)
            writer.bool(#","isFetchingPreviousPage":"#, infinite.isFetchingPreviousPage)
        }
        writer.bool(#","isInvalidated":"#, isInvalidated)
        writer.bool(#","isLoading":"#, isLoading)
        writer.bool(#","isPaused":"#, isPaused)
        writer.bool(#","isPending":"#, isPending)
        writer.bool(#","isPlaceholderData":"#, isPlaceholderData)
        writer.bool(#","isRefetching":"#, isRefetching)
        writer.bool(#","isStale":"#, isStale)
        writer.bool(#","isSuccess":"#, isSuccess)
        writer.raw(#","key":"#)
        key.withCanonicalBytes { writer.raw($0) }
        if let observers { writer.int(#","observers":"#, Int64(observers)) }
        writer.literal(#","status":"#, status.quoted)
        writer.int(#","version":"#, Int64(truncatingIfNeeded: version))
        writer.close()
    }

    /// The state object as a JSON value (for tests and cold paths).
    public var jsonValue: JSONValue {
        var bytes: [UInt8] = []
        write(to: &bytes)
        // The writer only produces valid JSON, so parsing it back cannot fail.
        return try! JSONParser.parse(bytes)
    }
}

/// Writes the members of one object at a pointer, each after its head (the separator before it,
/// the quoted name and the colon, as one literal); the caller sets aside the room (see `fixedRoom`).
private struct StateWriter {
    var at: UnsafeMutablePointer<UInt8>

    /// Room for everything but the variable parts (data, error, failure reason, key, epoch): the
    /// 32 members a state can have, each head at most 28 bytes (a name of at most 24 bytes with its
    /// quotes, colon and comma), each fixed value at most 20 bytes (a number; booleans, `null` and
    /// the statuses are shorter), and the braces.
    static let fixedRoom = 32 * (28 + 20) + 2

    init(at start: UnsafeMutablePointer<UInt8>) { at = start }

    mutating func open() { put(UInt8(ascii: "{")) }

    mutating func close() { put(UInt8(ascii: "}")) }

    mutating func bytes(_ head: StaticString, _ value: [UInt8]) {
        raw(head)
        value.withUnsafeBytes { raw($0) }
    }

    mutating func bytesOrNull(_ head: StaticString, _ value: [UInt8]?) {
        if let value { bytes(head, value) } else { literal(head, "null") }
    }

    mutating func int(_ head: StaticString, _ value: Int64) {
        raw(head)
        at = JSONWriter.writeInteger(value, at: at)
    }

    mutating func bool(_ head: StaticString, _ value: Bool) {
        literal(head, value ? "true" : "false")
    }

    /// A member whose value is `text` as it stands (JSON already).
    mutating func literal(_ head: StaticString, _ text: StaticString) {
        raw(head)
        raw(text)
    }

    mutating func raw(_ text: StaticString) {
        at.initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
        at += text.utf8CodeUnitCount
    }

    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(at).copyMemory(from: source, byteCount: bytes.count)
        at += bytes.count
    }

    private mutating func put(_ byte: UInt8) {
        at.initialize(to: byte)
        at += 1
    }
}

extension FetchStatus {
    /// The status as a JSON string.
    fileprivate var quoted: StaticString {
        switch self {
        case .idle: #""idle""#
        case .fetching: #""fetching""#
        case .paused: #""paused""#
        }
    }
}

extension QueryStatus {
    /// The status as a JSON string.
    fileprivate var quoted: StaticString {
        switch self {
        case .pending: #""pending""#
        case .success: #""success""#
        case .error: #""error""#
        }
    }
}
