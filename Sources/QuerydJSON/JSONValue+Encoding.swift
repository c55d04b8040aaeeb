// The canonical JSON encoder: compact output, object members sorted by the UTF-8 bytes of their
// names, so equal values always encode to identical bytes. Output never contains a raw CR or LF.

extension JSONValue {
    /// Appends the canonical compact encoding of this value to `buffer`.
    public func write(to buffer: inout [UInt8]) {
        StagedBytes.withStaging(in: &buffer) { write(into: &$0) }
    }

    /// Puts the canonical compact encoding of this value into `buffer`.
    func write(into buffer: inout StagedBytes) {
        switch self {
        case .null:
            buffer.put("null")
        case .bool(let flag):
            buffer.put(flag ? "true" : "false")
        case .number(let number):
            if case .int(let value) = number.storage {
                buffer.putInteger(value)
            } else {
                JSONWriter.writeNumber(number, into: &buffer)
            }
        case .string(let text):
            buffer.putString(text)
        case .array(let items):
            buffer.put(UInt8(ascii: "["))
            var first = true
            for item in items {
                if !first { buffer.put(UInt8(ascii: ",")) }
                first = false
                item.write(into: &buffer)
            }
            buffer.put(UInt8(ascii: "]"))
        case .object(let members):
            buffer.put(UInt8(ascii: "{"))
            if members.count <= SortedMember.stackLimit {
                writeSmallObject(members, to: &buffer)
            } else {
                var sorted: [SortedMember] = []
                sorted.reserveCapacity(members.count)
                for (name, value) in members { sorted.append(SortedMember(name: name, value: value)) }
                sorted.sort { $0.precedes($1) }
                for index in sorted.indices { sorted[index].write(into: &buffer, first: index == 0) }
            }
            buffer.put(UInt8(ascii: "}"))
        }
    }

    /// Writes the members of a small object (at most `SortedMember.stackLimit`) in canonical
    /// order, sorted by insertion in stack memory (no allocation).
    private func writeSmallObject(_ members: [String: JSONValue], to buffer: inout StagedBytes) {
        withUnsafeTemporaryAllocation(of: SortedMember.self, capacity: members.count) { slots in
            // Invariant: slots[0..<count] are initialized and sorted; the rest are not. Each member
            // is moved in once (the ones after its place moved up one) and moved out once when
            // written; `count` never exceeds `members.count`, the capacity.
            let base = slots.baseAddress!
            var count = 0
            for (name, value) in members {
                let member = SortedMember(name: name, value: value)
                var at = count
                while at > 0, member.precedes(base + (at - 1)) { at -= 1 }
                // One at a time: a few moves of a small struct, no call to memmove.
                var last = count
                while last > at {
                    (base + last).initialize(to: (base + last - 1).move())
                    last -= 1
                }
                (base + at).initialize(to: consume member)
                count += 1
            }
            for index in 0..<count { (base + index).move().write(into: &buffer, first: index == 0) }
        }
    }

    /// Calls `body` with the canonical compact encoding of this value, valid only during the call:
    /// in stack memory when it is short (no allocation), else in an array made for it. (Not
    /// generic: across modules a generic result would be handled unspecialized, at some cost.)
    public func withEncoding(_ body: (UnsafeRawBufferPointer) -> Void) {
        StagedBytes.withStaging { staged in
            write(into: &staged)
            staged.withBytes(body)
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

/// An object member being written in canonical order, with the first eight bytes of its name's
/// UTF-8 (zero-padded, big-endian) so most comparisons are one integer comparison, and a short
/// name (most are) is written from them without reading the String again.
private struct SortedMember {
    /// The most members sorted in stack memory; larger objects sort a heap array.
    static let stackLimit = 16

    let name: String
    let value: JSONValue
    let leadingBytes: UInt64
    /// The name's length when it has at most eight bytes and none needs escaping (they are then
    /// all in `leadingBytes`), else -1.
    let shortPlainLength: Int

    init(name: consuming String, value: consuming JSONValue) {
        (leadingBytes, shortPlainLength) = JSONWriter.leadingBytes(of: name)
        self.name = name
        self.value = value
    }

    /// True when this member's name sorts before `other`'s by UTF-8 bytes. Equal leading words
    /// (a shared 8-byte prefix, or names that differ only by trailing NULs) fall back to the
    /// full comparison; unequal ones order as the bytes do, a shorter name's padding being 0.
    func precedes(_ other: SortedMember) -> Bool {
        if leadingBytes != other.leadingBytes { return leadingBytes < other.leadingBytes }
        return JSONWriter.utf8Precedes(name, other.name)
    }

    /// `precedes(_:)` with the other member read in place (no copy of it).
    func precedes(_ other: UnsafePointer<SortedMember>) -> Bool {
        if leadingBytes != other.pointee.leadingBytes { return leadingBytes < other.pointee.leadingBytes }
        return JSONWriter.utf8Precedes(name, other.pointee.name)
    }

    /// Appends `,` unless `first`, then `"name":value`.
    func write(into buffer: inout StagedBytes, first: Bool) {
        if !first { buffer.put(UInt8(ascii: ",")) }
        if shortPlainLength >= 0 {
            buffer.putShortPlainName(leadingBytes.byteSwapped, length: shortPlainLength)
        } else {
            buffer.putString(name)
            buffer.put(UInt8(ascii: ":"))
        }
        value.write(into: &buffer)
    }
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
        writeString(s, into: &buffer)
    }

    /// `writeString(_:to:)` into any byte output.
    static func writeString(_ s: String, into buffer: inout some ByteOutput) {
        let written: Void? = s.utf8.withContiguousStorageIfAvailable { utf8 in
            buffer.put(UInt8(ascii: "\""))
            writeEscaped(utf8, from: 0, to: &buffer)
        }
        if written == nil {
            var copy = s
            copy.withUTF8 { utf8 in
                buffer.put(UInt8(ascii: "\""))
                writeEscaped(utf8, from: 0, to: &buffer)
            }
        }
    }

    /// Appends the canonical text of `n` (see `JSONNumber.description`).
    public static func writeNumber(_ n: JSONNumber, to buffer: inout [UInt8]) {
        writeNumber(n, into: &buffer)
    }

    /// `writeNumber(_:to:)` into any byte output.
    static func writeNumber(_ n: JSONNumber, into buffer: inout some ByteOutput) {
        switch n.storage {
        case .int(let value):
            writeInteger(value, into: &buffer)
        case .double(let value):
            writeRaw(JSONNumber.format(value), into: &buffer)
        case .bigInteger(let digits):
            writeRaw(digits, into: &buffer)
        }
    }

    /// Puts the UTF-8 bytes of `text` as they are.
    private static func writeRaw(_ text: String, into buffer: inout some ByteOutput) {
        var copy = text
        copy.withUTF8 { buffer.put($0) }
    }

    /// The first eight UTF-8 bytes of `s` as a big-endian integer, zero-padded when shorter, so
    /// comparing two of them compares those bytes in order; and the length of `s` when it has at
    /// most eight bytes and none needs escaping (see `PlainBytes`), else -1.
    static func leadingBytes(of s: String) -> (UInt64, shortPlainLength: Int) {
        if let word = s.utf8.withContiguousStorageIfAvailable({ leadingBytes(of: $0) }) { return word }
        var copy = s
        return copy.withUTF8 { leadingBytes(of: $0) }
    }

    /// `leadingBytes(of:)` of the bytes `utf8`.
    @inline(__always)
    private static func leadingBytes(of utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, shortPlainLength: Int) {
        // Safety: the loads read bytes 0..<min(count, 8) of `utf8`.
        guard let start = utf8.baseAddress, !utf8.isEmpty else { return (0, 0) }
        let length = utf8.count
        if length >= 8 {
            let word = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
            return (UInt64(bigEndian: word), length == 8 && PlainBytes.isPlainWord(word) ? 8 : -1)
        }
        // Byte 0 in the low bits, so swapped it is the high byte; padded with spaces (plain) for the check.
        let word = PlainBytes.shortWord(start, count: length, filling: 0)
        let padded = word | (PlainBytes.ones &* 0x20) &<< (length &* 8)
        return (word.byteSwapped, PlainBytes.isPlainWord(padded) ? length : -1)
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
        writeInteger(value, into: &buffer)
    }

    /// `writeInteger(_:to:)` into any byte output.
    static func writeInteger(_ value: Int64, into buffer: inout some ByteOutput) {
        let magnitude = value.magnitude
        if magnitude < 10 {
            if value < 0 { buffer.put(UInt8(ascii: "-")) }
            buffer.put(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            // Safety: `writeInteger(_:at:)` writes at most 20 bytes, the room allocated.
            let start = digits.baseAddress!
            buffer.put(UnsafeBufferPointer(start: start, count: writeInteger(value, at: start) - start))
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

    /// Puts the bytes of `utf8` from `start` escaped, and the closing quote (the opening one and
    /// the bytes before `start`, which need no escaping, are put already).
    static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int, to buffer: inout some ByteOutput) {
        var runStart = start
        var index = start
        let count = utf8.count
        var tailChecked = false
        while index < count {
            // Skip eight bytes at a time while none needs attention (see PlainBytes), and a last
            // run of fewer at once when it needs none either (padded with plain spaces).
            if index + 8 <= count {
                if PlainBytes.isPlainWord(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
            } else if !tailChecked {
                tailChecked = true
                // Safety: `shortWord` reads the `count - index` (fewer than eight) bytes left.
                if PlainBytes.isPlainWord(
                    PlainBytes.shortWord(utf8.baseAddress! + index, count: count - index, filling: 0x20))
                {
                    index = count
                    continue
                }
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
                buffer.put(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                buffer.put(utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                index += 3
                runStart = index
                continue
            }
            buffer.put(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            appendEscape(c, to: &buffer)
            index += 1
            runStart = index
        }
        buffer.put(UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        buffer.put(UInt8(ascii: "\""))
    }

    private static let lowerHexDigits: StaticString = "0123456789abcdef"

    private static func appendEscape(_ c: UInt8, to buffer: inout some ByteOutput) {
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
            // Safety: `c` is below 0x20 here, so both indices are below 16, the literal's length.
            let hex = lowerHexDigits.utf8Start
            buffer.put("\\u00")
            buffer.put(hex[Int(c >> 4)])
            buffer.put(hex[Int(c & 0x0F)])
            return
        }
        buffer.put(UInt8(ascii: "\\"))
        buffer.put(short)
    }
}

extension StagedBytes {
    /// Puts `s` as a JSON string literal, escaped as `JSONWriter.writeString(_:to:)` does: plain
    /// strings (most) are copied a word at a time as they are checked.
    mutating func putString(_ s: String) {
        let written: Void? = s.utf8.withContiguousStorageIfAvailable { putString(utf8: $0) }
        if written == nil {
            var copy = s
            copy.withUTF8 { putString(utf8: $0) }
        }
    }

    /// `putString(_:)` of the bytes `utf8`.
    private mutating func putString(utf8: UnsafeBufferPointer<UInt8>) {
        let plain = putQuotedPlainPrefix(utf8)
        if plain < utf8.count { JSONWriter.writeEscaped(utf8, from: plain, to: &self) }
    }
}
