// Output staging for the canonical encoder: the many small pieces of an encoding (quotes,
// separators, names, literals, digits) gather in a small buffer in stack memory and reach the
// output array in a few large appends instead of one append each.

/// Where the encoder's bytes go: an array of bytes, or `StagedBytes` in front of one.
protocol ByteOutput {
    mutating func put(_ byte: UInt8)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteOutput {
    /// Puts the bytes of `literal`.
    @inline(__always)
    mutating func put(_ literal: StaticString) {
        put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}

extension Array: ByteOutput where Element == UInt8 {
    @inline(__always)
    mutating func put(_ byte: UInt8) { append(byte) }

    @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// Bytes gathered in `staging` (memory the caller provides) and appended to `output` whenever it
/// fills and at `flush()`.
struct StagedBytes: ByteOutput {
    /// The room a caller gives the staging buffer (on the stack, see `withStaging`).
    static let stagingCapacity = 512

    var output: [UInt8]
    private let staging: UnsafeMutablePointer<UInt8>
    // Invariant: staging[0..<count] holds the bytes put since the last flush, and
    // count <= stagingCapacity, the room at `staging`.
    private var count = 0

    /// Calls `body` with bytes staged in front of `buffer`, flushed when `body` returns.
    static func withStaging(in buffer: inout [UInt8], _ body: (inout StagedBytes) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stagingCapacity) { room in
            var staged = StagedBytes(output: [], staging: room.baseAddress!)
            swap(&staged.output, &buffer)
            body(&staged)
            staged.flush()
            swap(&staged.output, &buffer)
        }
    }

    /// Calls `body` with bytes staged in front of an empty array.
    static func withStaging(_ body: (inout StagedBytes) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stagingCapacity) { room in
            var staged = StagedBytes(output: [], staging: room.baseAddress!)
            body(&staged)
        }
    }

    /// Calls `body` with all the bytes put: the staged ones in place when none was flushed yet,
    /// else `output` after a flush.
    mutating func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        if output.isEmpty { return body(UnsafeRawBufferPointer(start: staging, count: count)) }
        flush()
        output.withUnsafeBytes(body)
    }

    private init(output: [UInt8], staging: UnsafeMutablePointer<UInt8>) {
        self.output = output
        self.staging = staging
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        if count == Self.stagingCapacity { flush() }
        (staging + count).initialize(to: byte)
        count &+= 1
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count > Self.stagingCapacity &- count {
            flush()
            if bytes.count > Self.stagingCapacity {
                output.append(contentsOf: bytes)
                return
            }
        }
        guard let source = bytes.baseAddress else { return }
        (staging + count).initialize(from: source, count: bytes.count)
        count &+= bytes.count
    }

    /// Puts `"` and then the longest prefix of `utf8` found plain (see `PlainBytes`) word by word,
    /// copied eight bytes at a time as it is checked; when that is all of `utf8`, also the closing
    /// `"`. Returns the length of the prefix put (0 for a string longer than the staging buffer).
    @inline(__always)
    mutating func putQuotedPlainPrefix(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let length = utf8.count
        // The room needed: the quotes and the bytes between, at least eight (a short string's
        // word is stored whole; the bytes after it are overwritten later).
        let room = max(length, 8) &+ 2
        guard room <= Self.stagingCapacity else {
            put(UInt8(ascii: "\""))
            return 0
        }
        if room > Self.stagingCapacity &- count { flush() }
        // Safety: `room` bytes from `count` are within the staging buffer (checked above); the
        // loads read bytes 0..<length of `utf8` only.
        let target = UnsafeMutableRawPointer(staging + count)
        target.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        guard length >= 8 else {
            let word =
                length == 0
                ? PlainBytes.ones &* 0x20 : PlainBytes.shortWord(utf8.baseAddress!, count: length, filling: 0x20)
            target.storeBytes(of: word.littleEndian, toByteOffset: 1, as: UInt64.self)
            return PlainBytes.isPlainWord(word) ? closePlain(length, at: target) : openPrefix(0)
        }
        let source = UnsafeRawPointer(utf8.baseAddress!)
        var offset = 0
        while offset &+ 8 <= length {
            let word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard PlainBytes.isPlainWord(word) else { return openPrefix(offset) }
            target.storeBytes(of: word, toByteOffset: offset &+ 1, as: UInt64.self)
            offset &+= 8
        }
        if offset < length {
            // The last eight bytes, overlapping words already copied.
            let word = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            guard PlainBytes.isPlainWord(word) else { return openPrefix(offset) }
            target.storeBytes(of: word, toByteOffset: length &- 7, as: UInt64.self)
        }
        return closePlain(length, at: target)
    }

    /// Takes the quote and the `length` plain bytes written after it, and puts the closing quote.
    @inline(__always)
    private mutating func closePlain(_ length: Int, at target: UnsafeMutableRawPointer) -> Int {
        target.storeBytes(of: UInt8(ascii: "\""), toByteOffset: length &+ 1, as: UInt8.self)
        count &+= length &+ 2
        return length
    }

    /// Takes the quote and the `length` plain bytes written after it (the string goes on).
    @inline(__always)
    private mutating func openPrefix(_ length: Int) -> Int {
        count &+= length &+ 1
        return length
    }

    /// Puts `"`, the `length` (at most eight) bytes of `word` (byte `i` in bits `8i..<8i+8`), `"`
    /// and `:`: a member name none of whose bytes needs escaping.
    mutating func putShortPlainName(_ word: UInt64, length: Int) {
        if 11 > Self.stagingCapacity &- count { flush() }
        // Safety: the eleven bytes from `count` are within the staging buffer (checked above);
        // those after the name's are overwritten later.
        let target = UnsafeMutableRawPointer(staging + count)
        target.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        target.storeBytes(of: word.littleEndian, toByteOffset: 1, as: UInt64.self)
        target.storeBytes(of: UInt16(0x3A22).littleEndian, toByteOffset: length &+ 1, as: UInt16.self)
        count &+= length &+ 3
    }

    /// Puts the decimal digits of `value`.
    mutating func putInteger(_ value: Int64) {
        if 20 > Self.stagingCapacity &- count { flush() }
        // Safety: `writeInteger(_:at:)` writes at most 20 bytes, within the staging buffer.
        count = JSONWriter.writeInteger(value, at: staging + count) - staging
    }

    /// Appends the staged bytes to `output` and empties the staging buffer.
    @inline(never)
    mutating func flush() {
        output.append(contentsOf: UnsafeBufferPointer(start: staging, count: count))
        count = 0
    }
}
