// Splits a byte stream into newline-delimited message lines (NDJSON framing), zero-copy when it can.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way framing can fail.
public enum LineFramerError: Error, Sendable, Hashable {
    /// A line (or the unfinished tail of one) is longer than `limit` bytes. The line is dropped:
    /// the framer discards input up to the next newline if the caller keeps feeding it.
    case lineTooLong(limit: Int)
}

/// Cuts incoming bytes into lines for one connection.
///
/// Lines end at `"\n"`; one trailing `"\r"` is stripped (`"\r\n"` is accepted), and lines that
/// are empty or hold only spaces, tabs and carriage returns are skipped. A line's length is
/// counted without its terminator; `maxLineBytes` is accepted, one byte more is rejected.
///
/// A line lying entirely inside the chunk given to ``feed(_:_:)`` is passed to the callback
/// without copying; only the unfinished tail of a chunk is copied into an internal buffer. The
/// pointer given to the callback is valid only during that call.
///
/// The callback does not throw: framing errors are the only errors ``feed(_:_:)`` reports, and a
/// caller that wants to stop after some line simply ignores the remaining ones. When
/// ``LineFramerError/lineTooLong(limit:)`` is thrown, the lines before the oversized one have
/// been delivered and the oversized one is dropped. Bytes after it in the same chunk are kept
/// (not lost) and come out, in order, on the next ``feed(_:_:)`` or ``finish(_:)`` call, so a
/// caller may either close the connection or carry on.
public struct LineFramer: Sendable {
    /// The longest line accepted, in bytes, without its terminator.
    public let maxLineBytes: Int

    /// The unfinished line carried over from earlier chunks.
    private var tail: [UInt8] = []
    /// True while dropping the rest of an oversized line up to the next newline.
    private var discarding = false
    /// Input left unprocessed when a `lineTooLong` error interrupted a chunk.
    private var pending: [UInt8] = []

    private static let newline: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    /// Tail capacity kept between lines; a larger buffer left by a long line is released.
    private static let retainedCapacity = 64 * 1024

    /// A framer that rejects lines longer than `maxLineBytes` bytes.
    /// - Precondition: `maxLineBytes >= 0`.
    public init(maxLineBytes: Int) {
        precondition(maxLineBytes >= 0, "maxLineBytes must not be negative")
        self.maxLineBytes = maxLineBytes
    }

    /// The bytes held between calls: the unfinished tail, plus any input kept after an error.
    public var bufferedByteCount: Int { tail.count + pending.count }

    /// True while the framer is dropping the rest of an oversized line.
    public var isDiscarding: Bool { discarding }

    /// Consumes `bytes`, calling `onLine` once for every complete non-blank line, in order.
    /// - Throws: ``LineFramerError/lineTooLong(limit:)`` when a line exceeds the limit; see the
    ///   type's documentation for what happens to the rest of the input.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, _ onLine: (UnsafeRawBufferPointer) -> Void
    ) throws(LineFramerError) {
        if pending.isEmpty {
            try process(bytes, onLine)
            return
        }
        var chunk = pending
        pending = []
        chunk.append(contentsOf: bytes)
        let outcome = chunk.withUnsafeBytes { buffer in
            Result { () throws(LineFramerError) in try process(buffer, onLine) }
        }
        try outcome.get()
    }

    /// Ends the stream (EOF): delivers the last line even without a terminating newline
    /// (JSON Lines makes the final newline optional), then leaves the framer empty.
    /// - Throws: ``LineFramerError/lineTooLong(limit:)`` only for a line in input kept after an
    ///   earlier error; calling `finish` again then continues after it.
    public mutating func finish(_ onLine: (UnsafeRawBufferPointer) -> Void) throws(LineFramerError) {
        if !pending.isEmpty {
            try feed(UnsafeRawBufferPointer(start: nil, count: 0), onLine)
        }
        defer { releaseTail() }
        if discarding {
            discarding = false
            return
        }
        if tail.last == LineFramer.carriageReturn { tail.removeLast() }
        if !LineFramer.isBlank(tail) { tail.withUnsafeBytes(onLine) }
    }

    private mutating func process(
        _ bytes: UnsafeRawBufferPointer, _ onLine: (UnsafeRawBufferPointer) -> Void
    ) throws(LineFramerError) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var start = 0
        while start < count {
            guard let found = memchr(base + start, Int32(LineFramer.newline), count - start) else {
                try keepUnfinished(UnsafeRawBufferPointer(rebasing: bytes[start..<count]))
                return
            }
            let newline = UnsafeRawPointer(found) - base
            let part = UnsafeRawBufferPointer(rebasing: bytes[start..<newline])
            start = newline + 1
            if discarding {
                discarding = false
                continue
            }
            if tail.isEmpty {
                var line = part
                if line.last == LineFramer.carriageReturn { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
                if line.count > maxLineBytes { throw rejectLine(remainder: bytes, from: start) }
                if !LineFramer.isBlank(line) { onLine(line) }
            } else {
                let endsInCR =
                    part.isEmpty ? tail.last == LineFramer.carriageReturn : part.last == LineFramer.carriageReturn
                if tail.count + part.count - (endsInCR ? 1 : 0) > maxLineBytes {
                    releaseTail()
                    throw rejectLine(remainder: bytes, from: start)
                }
                tail.append(contentsOf: part)
                if endsInCR { tail.removeLast() }
                if !LineFramer.isBlank(tail) { tail.withUnsafeBytes(onLine) }
                releaseTail()
            }
        }
    }

    /// Stores the bytes after the last newline of a chunk, or starts discarding when the
    /// unfinished line is already too long (one more byte is allowed if it is a `"\r"`, since a
    /// `"\n"` may follow).
    private mutating func keepUnfinished(_ rest: UnsafeRawBufferPointer) throws(LineFramerError) {
        if discarding { return }
        let total = tail.count + rest.count
        if total > maxLineBytes {
            let lastByte = rest.last ?? tail.last
            if total > maxLineBytes + 1 || lastByte != LineFramer.carriageReturn {
                releaseTail()
                discarding = true
                throw .lineTooLong(limit: maxLineBytes)
            }
        }
        tail.append(contentsOf: rest)
    }

    /// Keeps the input after a rejected complete line for the next call and returns the error.
    private mutating func rejectLine(remainder bytes: UnsafeRawBufferPointer, from start: Int) -> LineFramerError {
        if start < bytes.count { pending = Array(bytes[start..<bytes.count]) }
        return .lineTooLong(limit: maxLineBytes)
    }

    private mutating func releaseTail() {
        tail.removeAll(keepingCapacity: tail.capacity <= LineFramer.retainedCapacity)
    }

    private static func isBlank<Bytes: Collection<UInt8>>(_ line: Bytes) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
