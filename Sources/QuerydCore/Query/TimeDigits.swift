// The decimal text of a time in milliseconds since 1970, as the state object and the `query.get`
// answer carry it: every time from 2001 to 2286 has 13 digits, written as five and eight, each
// group made in one 64-bit word rather than two digits per division (about half the instructions
// of the general integer writer).

import QuerydJSON

/// Writes times (milliseconds since 1970) as JSON numbers.
enum TimeDigits {
    /// Writes `value`'s decimal digits (as `JSONWriter.writeInteger` writes them) at `next`, which
    /// has room for 20 bytes; returns the address after them.
    @inline(__always)
    static func write(_ value: Int64, at next: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard value >= 1_000_000_000_000, value < 10_000_000_000_000 else {
            if UInt64(bitPattern: value) < 10 {
                next.initialize(to: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
                return next + 1
            }
            return JSONWriter.writeInteger(value, at: next)
        }
        let (high, low) = UInt64(value).quotientAndRemainder(dividingBy: 100_000_000)
        let word = UnsafeMutableRawPointer(next)
        // The high part's eight digits have three leading zeros: its last five are stored, and
        // the low part's eight over the three bytes after them.
        word.storeBytes(of: (eightDigits(high) &>> 24).littleEndian, as: UInt64.self)
        word.storeBytes(of: eightDigits(low).littleEndian, toByteOffset: 5, as: UInt64.self)
        return next + 13
    }

    /// The eight decimal digits of `value` (below 10⁸, with leading zeros) as ASCII, the first
    /// in the low byte: split into halves of four digits, each into two of two, each into digits,
    /// every lane of the word at once (each lane's product stays within the lane).
    static func eightDigits(_ value: UInt64) -> UInt64 {
        let halves = value / 10_000 | (value % 10_000) << 32
        // x / 100 = x * 10486 >> 20 and x / 10 = x * 103 >> 10 for the values below 10⁴ and 100 here.
        let hundreds = (halves &* 10486) &>> 20 & 0x0000_007F_0000_007F
        let pairs = hundreds | (halves &- hundreds &* 100) << 16
        let tens = (pairs &* 103) &>> 10 & 0x000F_000F_000F_000F
        let digits = tens | (pairs &- tens &* 10) << 8
        return digits | 0x3030_3030_3030_3030
    }
}
