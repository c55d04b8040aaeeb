// The encoded JSON of a query's data, in one malloc'd block owned by the query.
//
// Every cached query keeps its data encoded, so a cache hit splices bytes. A Swift array would
// put a 32-byte header (object header, count, capacity) before them; this block is a 4-byte
// length followed by the bytes, which keeps a 100-byte value in a 112-byte allocation instead of
// a 144-byte one — at a million queries, 32 MB. The price is manual ownership: exactly one
// `Query` holds a block, frees it when it replaces it or is deinitialised, and lends the bytes
// out only inside `withUnsafeBytes` (or copies them).

import QuerydJSON

/// A length-prefixed byte block. A plain value: copying it does not copy or retain the bytes, so
/// only its owner may keep it or call `deallocate()`.
struct EncodedBytes {
    private let base: UnsafeMutableRawPointer

    /// The largest encoding a block holds (its length field is 32 bits); the daemon's message
    /// size limit keeps every value far below it.
    static let maxCount = Int(UInt32.max)

    /// A new block holding a copy of `bytes`.
    init(copying bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= Self.maxCount, "encoded data larger than 4 GiB")
        base = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<UInt32>.size + bytes.count, alignment: MemoryLayout<UInt32>.alignment)
        base.storeBytes(of: UInt32(bytes.count), as: UInt32.self)
        if let source = bytes.baseAddress {
            (base + MemoryLayout<UInt32>.size).copyMemory(from: source, byteCount: bytes.count)
        }
    }

    /// A new block holding `value`'s canonical compact encoding.
    init(encoding value: JSONValue) {
        self = value.encoded.withUnsafeBytes { EncodedBytes(copying: $0) }
    }

    /// The number of bytes.
    var count: Int { Int(base.load(as: UInt32.self)) }

    /// Calls `body` with the bytes, valid only during the call.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base + MemoryLayout<UInt32>.size, count: count))
    }

    /// A copy of the bytes as an array.
    var array: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The block's address (its identity; for tests of structural sharing).
    var address: UnsafeRawPointer { UnsafeRawPointer(base) }

    /// Frees the block. Only its owner calls this, once, and never uses the value again.
    func deallocate() { base.deallocate() }
}
