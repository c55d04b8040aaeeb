// The canonical JSON encoder: compact output, object members sorted by the UTF-8 bytes of their
// names, so equal values always encode to identical bytes. Output never contains a raw CR or LF.

extension JSONValue {
    /// Appends the canonical compact encoding of this value to `buffer`.
    public func write(to buffer: inout [UInt8]) {
        switch self {
        case .null:
            buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let flag):
            if flag {
                buffer.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
            } else {
                buffer.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
            }
        case .number(let number):
            JSONWriter.writeNumber(number, to: &buffer)
        case .string(let text):
            JSONWriter.writeString(text, to: &buffer)
        case .array(let items):
            buffer.append(UInt8(ascii: "["))
            var first = true
            for item in items {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                item.write(to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            if members.count == 1, let (name, value) = members.first {
                JSONWriter.writeString(name, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                value.write(to: &buffer)
            } else {
                var sorted: [SortedMember] = []
                sorted.reserveCapacity(members.count)
                for (name, value) in members { sorted.append(SortedMember(name: name, value: value)) }
                sorted.sort { JSONWriter.utf8Precedes($0.name, $1.name) }
                var first = true
                for member in sorted {
                    if !first { buffer.append(UInt8(ascii: ",")) }
                    first = false
                    JSONWriter.writeString(member.name, to: &buffer)
                    buffer.append(UInt8(ascii: ":"))
                    member.value.write(to: &buffer)
                }
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The canonical compact encoding as bytes.
    public var encoded: [UInt8] {
        var buffer: [UInt8] = []
        write(to: &buffer)
        return buffer
    }

    /// The canonical compact encoding as a String.
    public var encodedString: String {
        String(decoding: encoded, as: UTF8.self)
    }
}

/// An object member being written in canonical order (a struct rather than a tuple so arrays of
/// them are handled by specialized code).
private struct SortedMember {
    let name: String
    let value: JSONValue
}

extension JSONValue: CustomStringConvertible {
    /// The canonical compact encoding (same as `encodedString`).
    public var description: String { encodedString }
}

/// Low-level writers for code that assembles JSON envelopes by hand.
public enum JSONWriter {
    /// Appends `s` as a JSON string literal: `"` and `\` escaped, control characters as
    /// `\b \f \n \r \t` or `\u00XX`, U+2028 and U+2029 as `\u2028` and `\u2029`, the rest raw UTF-8.
    public static func writeString(_ s: String, to buffer: inout [UInt8]) {
        let written: Void? = s.utf8.withContiguousStorageIfAvailable { utf8 in
            writeStringBytes(utf8, to: &buffer)
        }
        if written == nil {
            var copy = s
            copy.withUTF8 { utf8 in writeStringBytes(utf8, to: &buffer) }
        }
    }

    /// Appends the canonical text of `n` (see `JSONNumber.description`).
    public static func writeNumber(_ n: JSONNumber, to buffer: inout [UInt8]) {
        switch n.storage {
        case .int(let value):
            writeInteger(value, to: &buffer)
        case .double(let value):
            buffer.append(contentsOf: JSONNumber.format(value).utf8)
        case .bigInteger(let digits):
            buffer.append(contentsOf: digits.utf8)
        }
    }

    /// True when the UTF-8 bytes of `a` sort before those of `b` (the canonical member order).
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        let result = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in
                let shared = min(left.count, right.count)
                for index in 0..<shared where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
        if case .some(.some(let precedes)) = result { return precedes }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Appends the decimal digits of `value` (no allocation).
    public static func writeInteger(_ value: Int64, to buffer: inout [UInt8]) {
        let magnitude = value.magnitude
        if magnitude < 10 {
            if value < 0 { buffer.append(UInt8(ascii: "-")) }
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            // Safety: `writeInteger(_:at:)` writes at most 20 bytes, the room allocated.
            let start = digits.baseAddress!
            buffer.append(contentsOf: UnsafeBufferPointer(start: start, count: writeInteger(value, at: start) - start))
        }
    }

    /// Writes the decimal digits of `value` at `next`, which has room for 20 bytes (the longest,
    /// `Int64.min`, takes 20 with its sign); returns the address after them. For callers that
    /// assemble several parts before one append. The digits are counted first and written in
    /// place, two per division, right to left (no buffer in between).
    public static func writeInteger(_ value: Int64, at next: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>
    {
        var at = next
        if value < 0 {
            at.initialize(to: UInt8(ascii: "-"))
            at += 1
        }
        var magnitude = value.magnitude
        // Safety: `digitCount` digits (at most 19) go at `at`, within the 20 bytes of room with the
        // sign; `pairs` reads at most index 199 of the 200-byte literal, whose storage is static.
        let end = at + digitCount(of: magnitude)
        let pairs = digitPairs.utf8Start
        var index = end
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
            magnitude /= 100
            index -= 2
            index.initialize(to: pairs[pair])
            (index + 1).initialize(to: pairs[pair &+ 1])
        }
        if magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude) &* 2
            (index - 2).initialize(to: pairs[pair])
            (index - 1).initialize(to: pairs[pair &+ 1])
        } else {
            (index - 1).initialize(to: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
        }
        return end
    }

    /// The number of decimal digits of `m` (1 for 0), by comparisons only: `10^(k-1) <= m < 10^k`.
    @inline(__always)
    private static func digitCount(of m: UInt64) -> Int {
        if m < 10_000_000_000 {
            if m < 100_000 { return m < 100 ? (m < 10 ? 1 : 2) : (m < 1_000 ? 3 : (m < 10_000 ? 4 : 5)) }
            if m < 10_000_000 { return m < 1_000_000 ? 6 : 7 }
            return m < 100_000_000 ? 8 : (m < 1_000_000_000 ? 9 : 10)
        }
        if m < 1_000_000_000_000_000 {
            if m < 1_000_000_000_000 { return m < 100_000_000_000 ? 11 : 12 }
            return m < 10_000_000_000_000 ? 13 : (m < 100_000_000_000_000 ? 14 : 15)
        }
        if m < 100_000_000_000_000_000 { return m < 10_000_000_000_000_000 ? 16 : 17 }
        return m < 1_000_000_000_000_000_000 ? 18 : (m < 10_000_000_000_000_000_000 ? 19 : 20)
    }

    /// The two decimal digits of every number below 100, in order ("00" through "99").
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    private static func writeStringBytes(_ utf8: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = utf8.count
        while index < count {
            // Skip eight bytes at a time while none needs attention (see PlainBytes).
            if index + 8 <= count,
                PlainBytes.isPlainWord(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let c = utf8[index]
            if c >= 0x20, c != UInt8(ascii: "\""), c != UInt8(ascii: "\\"), c != 0xE2 {
                index += 1
                continue
            }
            if c == 0xE2 {
                // U+2028 is E2 80 A8 and U+2029 is E2 80 A9.
                guard index + 2 < count, utf8[index + 1] == 0x80, utf8[index + 2] & 0xFE == 0xA8 else {
                    index += 1
                    continue
                }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                buffer.append(contentsOf: utf8[index + 2] == 0xA8 ? escape2028 : escape2029)
                index += 3
                runStart = index
                continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            appendEscape(c, to: &buffer)
            index += 1
            runStart = index
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        buffer.append(UInt8(ascii: "\""))
    }

    private static let escape2028: [UInt8] = Array("\\u2028".utf8)
    private static let escape2029: [UInt8] = Array("\\u2029".utf8)
    private static let lowerHexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func appendEscape(_ c: UInt8, to buffer: inout [UInt8]) {
        let short: UInt8
        switch c {
        case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        default:
            let hex = lowerHexDigits
            buffer.append(contentsOf: [
                UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                hex[Int(c >> 4)], hex[Int(c & 0x0F)],
            ])
            return
        }
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(short)
    }
}
