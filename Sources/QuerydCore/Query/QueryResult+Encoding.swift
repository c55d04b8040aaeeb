// Writes a state object (a QueryResult, or a query's own state after a write) as the protocol's
// state object, in canonical member order (sorted by name, as JSONValue's encoder would),
// splicing the query's pre-encoded data when it has it.

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

    /// Appends the state object's JSON, with the members of `shape`, to `buffer`.
    public func write(to buffer: inout [UInt8], shape: StateShape) {
        let dataValue: [UInt8]? = shape.hasData ? (encodedData ?? data?.encoded) : nil
        encodedEpoch.withUnsafeBytes { epoch in
            guard let dataValue else { return writeStateObject(to: &buffer, shape: shape, data: nil, epoch: epoch) }
            dataValue.withUnsafeBytes { writeStateObject(to: &buffer, shape: shape, data: $0, epoch: epoch) }
        }
    }

    /// At most how many bytes more than the state object's length `write(to:)` needs free in its
    /// buffer (the room set aside for the members whose length it does not count beforehand).
    public static let writeRoomSlack = StateWriter.fixedRoom
}

extension StateObjectSource {
    /// Appends the state object's JSON, with the members of `shape`, to `buffer`: `data` (nil: no
    /// `data` member) and `epoch` are the encodings of the data and the epoch. The error and
    /// failure reason are encoded first; then the whole object is written in one pass into room
    /// set aside for it (an append per member cost more than the rest of a `query.set`'s reply).
    func writeStateObject(
        to buffer: inout [UInt8], shape: StateShape, data: UnsafeRawBufferPointer?, epoch: UnsafeRawBufferPointer
    ) {
        let errorValue = error?.encoded
        let failureValue = failureReason?.encoded
        let room =
            StateWriter.fixedRoom + (data?.count ?? 0) + (errorValue?.count ?? 0) + (failureValue?.count ?? 0)
            + key.canonicalByteCount + epoch.count
        buffer.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { free, initialized in
                // Safety: `room` bytes are free from `initialized` on: the variable parts are
                // counted exactly, and `fixedRoom` covers every name, separator and fixed-size value.
                let start = free.baseAddress! + initialized
                var writer = StateWriter(at: start)
                writeMembers(
                    to: &writer, shape: shape, data: data, epoch: epoch, error: errorValue, failure: failureValue)
                assert(writer.at - start <= room, "the state fits the room set aside for it")
                initialized += writer.at - start
            }
        }
    }

    /// The members, in canonical order (sorted by name). Each is written with its comma, and the
    /// first one's comma is then made the opening brace.
    private func writeMembers(
        to writer: inout StateWriter, shape: StateShape, data: UnsafeRawBufferPointer?,
        epoch: UnsafeRawBufferPointer, error: [UInt8]?, failure: [UInt8]?
    ) {
        let start = writer.at
        if let data { writer.bytes(#","data":"#, data) }
        writer.int(#","dataUpdateCount":"#, Int64(dataUpdateCount))
        writer.time(#","dataUpdatedAt":"#, dataUpdatedAt)
        if shape.hasDataVersion, let dataVersion {
            writer.int(#","dataVersion":"#, Int64(truncatingIfNeeded: dataVersion))
        }
        writer.bytes(#","epoch":"#, epoch)
        writer.bytesOrNull(#","error":"#, error)
        writer.int(#","errorUpdateCount":"#, Int64(errorUpdateCount))
        writer.time(#","errorUpdatedAt":"#, errorUpdatedAt)
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
        start.pointee = UInt8(ascii: "{")
    }
}

extension QueryResult {
    /// The state object as a JSON value (for tests and cold paths).
    public var jsonValue: JSONValue {
        var bytes: [UInt8] = []
        write(to: &bytes)
        // The writer only produces valid JSON, so parsing it back cannot fail.
        return try! JSONParser.parse(bytes)
    }
}

/// Writes `,"name":value` members of one object at a pointer, each name given with its comma,
/// quotes and colon (one copy); the caller sets aside the room (see `fixedRoom`) and opens the
/// object. The members are always inlined: in the generic writer the optimiser otherwise calls
/// them, which cost a `query.set` reply some 400 instructions.
struct StateWriter {
    var at: UnsafeMutablePointer<UInt8>

    /// Room for everything but the variable parts (data, error, failure reason, key, epoch): the
    /// 32 members a state can have, each name at most 24 bytes with quotes, colon and comma (28),
    /// each fixed value at most 20 bytes (a number; booleans, `null` and the statuses are shorter),
    /// and the braces.
    static let fixedRoom = 32 * (28 + 20) + 2

    init(at start: UnsafeMutablePointer<UInt8>) { at = start }

    @inline(__always) mutating func close() {
        at.initialize(to: UInt8(ascii: "}"))
        at += 1
    }

    @inline(__always) mutating func bytes(_ name: StaticString, _ value: UnsafeRawBufferPointer) {
        raw(name)
        raw(value)
    }

    @inline(__always) mutating func bytesOrNull(_ name: StaticString, _ value: [UInt8]?) {
        if let value { value.withUnsafeBytes { bytes(name, $0) } } else { literal(name, "null") }
    }

    /// A number member; a single digit (most counters) is stored without the integer writer.
    @inline(__always) mutating func int(_ name: StaticString, _ value: Int64) {
        raw(name)
        if UInt64(bitPattern: value) < 10 {
            at.initialize(to: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            at += 1
        } else {
            at = JSONWriter.writeInteger(value, at: at)
        }
    }

    /// A time member (milliseconds since 1970), written as `TimeDigits` writes it.
    @inline(__always) mutating func time(_ name: StaticString, _ value: Int64) {
        raw(name)
        at = TimeDigits.write(value, at: at)
    }

    /// `true` or `false`, stored as words (`false` as `fals` and `e`).
    @inline(__always) mutating func bool(_ name: StaticString, _ value: Bool) {
        raw(name)
        let word = UnsafeMutableRawPointer(at)
        if value {
            word.storeBytes(of: StateWriter.trueWord, as: UInt32.self)
            at += 4
        } else {
            word.storeBytes(of: StateWriter.falsWord, as: UInt32.self)
            word.storeBytes(of: UInt8(ascii: "e"), toByteOffset: 4, as: UInt8.self)
            at += 5
        }
    }

    /// `true` and `fals` as little-endian words.
    private static let trueWord = UInt32(littleEndian: 0x6575_7274)
    private static let falsWord = UInt32(littleEndian: 0x736C_6166)

    /// A member whose value is `text` as it stands (JSON already).
    @inline(__always) mutating func literal(_ name: StaticString, _ text: StaticString) {
        raw(name)
        raw(text)
    }

    @inline(__always) mutating func raw(_ text: StaticString) {
        at.initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
        at += text.utf8CodeUnitCount
    }

    @inline(__always) mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(at).copyMemory(from: source, byteCount: bytes.count)
        at += bytes.count
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
