// The `query.set` reply for the commonest written state: a query that holds data, succeeded, is
// idle, is not invalidated and never failed (no side object of rare fields). Such a state object
// is the same text for every write but for its data, counters, times, epoch, key and staleness,
// so it is written from two fixed templates with those parts spliced in: the same bytes as the
// general state writer (`StateObjectSource.writeStateObject`), in a few copies.

extension WrittenState {
    /// At most how many bytes `writePlainState(at:)` writes, when the state has the plain shape
    /// above; nil when it does not (then `write(to:)` writes it).
    public var plainStateRoom: Int? {
        guard query.status == .success, query.fetchStatus == .idle, !query.isInvalidated, query.extras == nil,
            query.dataUpdateCount > 0, let encoded = query.encoded
        else { return nil }
        return WrittenState.plainFixedRoom + encoded.count + encodedEpoch.count + query.key.canonicalByteCount
    }

    /// Appends to `buffer`, in one pass over its free capacity, what `writeHead` writes (at most
    /// `headRoom` bytes; it returns the address after them), the state object and `tail`, when the
    /// state has the plain shape; returns false, having appended nothing, when it has not.
    public func appendPlainState(
        to buffer: inout [UInt8], headRoom: Int, tail: UInt8,
        writeHead: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>
    ) -> Bool {
        guard let room = plainStateRoom else { return false }
        buffer.append(addingCapacity: headRoom + room + 1) { span in
            span.withUnsafeMutableBufferPointer { free, initialized in
                // Safety: `headRoom + room + 1` bytes are free from `initialized` on: the head takes
                // at most `headRoom`, the state at most `room`, and the tail one.
                let start = free.baseAddress! + initialized
                let end = writePlainState(at: writeHead(start))
                end.initialize(to: tail)
                initialized += end + 1 - start
            }
        }
        return true
    }

    /// Writes the state object at `start`, which has `plainStateRoom` bytes free (so the state has
    /// the plain shape); returns the address after it.
    public func writePlainState(at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        assert(plainStateRoom != nil, "only a state of the plain shape is written from the templates")
        var writer = StateWriter(at: start)
        writer.raw(#"{"data":"#)
        query.encoded?.withUnsafeBytes { writer.raw($0) }
        writer.int(#","dataUpdateCount":"#, Int64(query.dataUpdateCount))
        writer.time(#","dataUpdatedAt":"#, query.dataUpdatedAt)
        writer.raw(#","epoch":"#)
        encodedEpoch.withUnsafeBytes { writer.raw($0) }
        writer.raw(isStale ? WrittenState.staleMiddle : WrittenState.freshMiddle)
        query.key.withCanonicalBytes { writer.raw($0) }
        writer.int(#","status":"success","version":"#, Int64(truncatingIfNeeded: version))
        writer.close()
        assert(writer.at - start <= plainStateRoom ?? 0, "the state fits the room set aside for it")
        return writer.at
    }

    /// The members from `error` to `key`'s name, in canonical order, of a state of the plain shape.
    private static let staleMiddle: StaticString =
        #","error":null,"errorUpdateCount":0,"errorUpdatedAt":0,"failureCount":0,"failureReason":null,"fetchStatus":"idle","isError":false,"isFetched":true,"isFetching":false,"isInvalidated":false,"isLoading":false,"isPaused":false,"isPending":false,"isPlaceholderData":false,"isRefetching":false,"isStale":true,"isSuccess":true,"key":"#
    private static let freshMiddle: StaticString =
        #","error":null,"errorUpdateCount":0,"errorUpdatedAt":0,"failureCount":0,"failureReason":null,"fetchStatus":"idle","isError":false,"isFetched":true,"isFetching":false,"isInvalidated":false,"isLoading":false,"isPaused":false,"isPending":false,"isPlaceholderData":false,"isRefetching":false,"isStale":false,"isSuccess":true,"key":"#

    /// Room for the templates' fixed text (the longer middle, the other names, braces: 410 bytes)
    /// and three numbers of at most 20 bytes.
    private static let plainFixedRoom = 512
}
