// Word-at-a-time scanning shared by the parser and the encoder: both skip runs of string bytes
// that need no attention eight bytes at a time.

/// Tests eight bytes at once for the bytes JSON string handling must look at.
enum PlainBytes {
    /// True when none of the eight bytes in `word` is '"', '\\', a control character (< 0x20) or
    /// non-ASCII (>= 0x80). Classic SWAR tests, independent of byte order: `(x - 0x01…) & ~x` has a
    /// high bit set in some byte exactly when some byte of `x` is zero, and `x - 0x20…` sets one
    /// for a byte below 0x20 once bytes with their own high bit set are ruled out by `| word`.
    @inline(__always)
    static func isPlainWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = word &- (ones &* 0x20)
        return (hasQuote | hasBackslash | hasControl | word) & highs == 0
    }
}
