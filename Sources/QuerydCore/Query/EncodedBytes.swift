// The encoded JSON of a query's data, in one malloc'd block owned by the query.
//
// Every cached query keeps its data encoded, so a cache hit splices bytes. A Swift array would
// put a 32-byte header (object header, count, capacity) before them; this block is a 4-byte
// length followed by the bytes, which keeps a 100-byte value in a 112-byte allocation instead of
// a 144-byte one — at a million queries, 32 MB. (A value of 4 GiB or more, which only repeated
// merge patches could build, gets the marker 0xFFFFFFFF and an 8-byte length instead.) The price
// is manual ownership: exactly one `Query` holds a block, frees it when it replaces it or is
// deinitialised, and lends the bytes out only inside `withUnsafeBytes` (or copies them).

import QuerydJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A length-prefixed byte block. A plain value: copying it does not copy or retain the bytes, so
/// only its owner may keep it or call `deallocate()`.
struct EncodedBytes {
    private let base: UnsafeMutableRawPointer

    /// The short length field's value that says an 8-byte length follows.
    private static let wideMarker = UInt32.max

    /// A new block holding a copy of `bytes`. Lengths from `wideFrom` on use the 8-byte length
    /// (tests lower it to exercise that layout).
    init(copying bytes: UnsafeRawBufferPointer, wideFrom: Int = Int(UInt32.max)) {
        let wide = bytes.count >= min(wideFrom, Int(Self.wideMarker))
        let header = wide ? 12 : 4
        // malloc's blocks are aligned for any scalar; `allocate(byteCount:alignment:)` asks for an
        // aligned allocation (posix_memalign), which cost a `query.set` some 70 instructions more.
        guard let block = malloc(header + bytes.count) else { fatalError("out of memory") }
        base = block
        if wide {
            base.storeBytes(of: Self.wideMarker, as: UInt32.self)
            (base + 4).storeBytes(of: UInt64(bytes.count), toByteOffset: 0, as: UInt64.self)
        } else {
            base.storeBytes(of: UInt32(bytes.count), as: UInt32.self)
        }
        if let source = bytes.baseAddress {
            (base + header).copyMemory(from: source, byteCount: bytes.count)
        }
    }

    /// A new block holding `value`'s canonical compact encoding.
    init(encoding value: JSONValue) {
        self = value.encoded.withUnsafeBytes { EncodedBytes(copying: $0) }
    }

    /// The number of bytes.
    var count: Int { layout.count }

    /// Where the bytes start and how many there are.
    private var layout: (start: UnsafeMutableRawPointer, count: Int) {
        let short = base.load(as: UInt32.self)
        if short != Self.wideMarker { return (base + 4, Int(short)) }
        return (base + 12, Int((base + 4).loadUnaligned(as: UInt64.self)))
    }

    /// Calls `body` with the bytes, valid only during the call.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let (start, count) = layout
        return try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// A copy of the bytes as an array.
    var array: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The block's address (its identity; for tests of structural sharing).
    var address: UnsafeRawPointer { UnsafeRawPointer(base) }

    /// Frees the block. Only its owner calls this, once, and never uses the value again.
    func deallocate() { free(base) }
}
