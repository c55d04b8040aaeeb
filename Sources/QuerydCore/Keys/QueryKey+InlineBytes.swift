// The in-place storage of a short query key: up to 23 canonical bytes in three machine words, so
// the key needs no heap allocation. The byte count is in the last byte and unused bytes are zero,
// so two values are equal exactly when their words are, and they order by their words read
// big-endian (memcmp order, a prefix first: the count breaks the tie of zero padding).

/// Up to `capacity` bytes held in place: bytes `0..<count` in memory order, then zeros, then the
/// count in byte 23.
struct InlineKeyBytes: Sendable, Equatable {
    /// The most bytes a value holds.
    static let capacity = 23

    /// The bytes in memory order; a tuple, so its layout is fixed.
    private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)

    /// Copies `bytes`, or returns nil when there are more than `capacity` of them.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.capacity else { return nil }
        withUnsafeMutableBytes(of: &words) { storage in
            if !bytes.isEmpty { storage.copyMemory(from: bytes) }
            storage[Self.capacity] = UInt8(truncatingIfNeeded: bytes.count)
        }
    }

    /// The number of bytes held.
    var count: Int {
        // Byte 23 is the last in memory, so the low byte of the last word read big-endian.
        Int(truncatingIfNeeded: UInt64(bigEndian: words.2) & 0xFF)
    }

    /// Calls `body` with the bytes held (valid only during the call).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let count = count
        return try withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// Equal exactly when the bytes are (the count is part of the last word).
    static func == (lhs: InlineKeyBytes, rhs: InlineKeyBytes) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
    }

    /// True when `lhs`'s bytes precede `rhs`'s in unsigned lexicographic (memcmp) order.
    static func precedes(_ lhs: InlineKeyBytes, _ rhs: InlineKeyBytes) -> Bool {
        let a0 = UInt64(bigEndian: lhs.words.0)
        let b0 = UInt64(bigEndian: rhs.words.0)
        if a0 != b0 { return a0 < b0 }
        let a1 = UInt64(bigEndian: lhs.words.1)
        let b1 = UInt64(bigEndian: rhs.words.1)
        if a1 != b1 { return a1 < b1 }
        return UInt64(bigEndian: lhs.words.2) < UInt64(bigEndian: rhs.words.2)
    }
}
