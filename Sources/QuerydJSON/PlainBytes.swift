// Word-at-a-time scanning shared by the parser and the encoder: both skip runs of string bytes
// that need no attention eight bytes at a time.

/// Tests eight bytes at once for the bytes JSON string handling must look at.
enum PlainBytes {
    /// Eight bytes of 0x01.
    static let ones: UInt64 = 0x0101_0101_0101_0101

    /// True when none of the eight bytes in `word` is '"', '\\', a control character (< 0x20) or
    /// non-ASCII (>= 0x80). Classic SWAR tests, independent of byte order: `(x - 0x01…) & ~x` has a
    /// high bit set in some byte exactly when some byte of `x` is zero, and `x - 0x20…` sets one
    /// for a byte below 0x20 once bytes with their own high bit set are ruled out by `| word`.
    @inline(__always)
    static func isPlainWord(_ word: UInt64) -> Bool {
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = word &- (ones &* 0x20)
        return (hasQuote | hasBackslash | hasControl | word) & highs == 0
    }

    /// The `count` bytes (fewer than eight) at `source` as a word holding byte `i` in bits
    /// `8i..<8i+8` (the word a little-endian load of them would give), its other bytes `filler`.
    /// Reads only those `count` bytes: two overlapping loads of four, or of two, or one byte.
    @inline(__always)
    static func shortWord(_ source: UnsafeRawPointer, count: Int, filling filler: UInt8) -> UInt64 {
        let word: UInt64
        if count >= 4 {
            let low = UInt32(littleEndian: source.loadUnaligned(as: UInt32.self))
            let high = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            word = UInt64(low) | UInt64(high) &<< ((count &- 4) &* 8)
        } else if count >= 2 {
            let low = UInt16(littleEndian: source.loadUnaligned(as: UInt16.self))
            let high = UInt16(littleEndian: source.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
            word = UInt64(low) | UInt64(high) &<< ((count &- 2) &* 8)
        } else if count == 1 {
            word = UInt64(source.load(as: UInt8.self))
        } else {
            word = 0
        }
        return word | (UInt64(filler) &* ones) &<< (count &* 8)
    }
}
