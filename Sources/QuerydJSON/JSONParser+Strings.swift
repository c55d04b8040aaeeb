// String parsing for the JSON parser: UTF-8 validation, escapes and surrogate pairs.
//
// Escape-free strings (the common case) are validated in place and turned into a String with a
// single copy of their bytes; strings with escapes are decoded into a scratch byte buffer.

extension JSONReader {
    /// Parses the string whose opening quote is at `pos` and moves past its closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let open = pos
        let start = pos + 1
        var i = start
        let limit = end
        let raw = bytes
        while i < limit {
            // Skip eight plain bytes at a time while a whole word is available.
            if i + 8 <= limit, PlainBytes.isPlainWord(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                i += 8
                continue
            }
            // Otherwise look at the bytes of this word one at a time.
            let wordEnd = min(i + 8, limit)
            while i < wordEnd {
                let c = raw[i]
                // One range test covers the common case: printable ASCII other than '"' and '\\'.
                if c &- 0x20 < 0x60, c != UInt8(ascii: "\""), c != UInt8(ascii: "\\") {
                    i += 1
                    continue
                }
                if c == UInt8(ascii: "\"") {
                    pos = i + 1
                    return String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<i]), as: UTF8.self)
                }
                if c == UInt8(ascii: "\\") {
                    return try parseEscapedString(open: open, firstEscape: i)
                }
                if c < 0x20 {
                    throw controlCharacterError(at: i)
                }
                i = c < 0x80 ? i + 1 : try validateUTF8Sequence(at: i)
            }
        }
        throw JSONParseError(offset: open, message: "unterminated string")
    }

    /// The slow path: decodes a string containing escapes, starting from its first backslash.
    private mutating func parseEscapedString(open: Int, firstEscape: Int) throws(JSONParseError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(firstEscape - open + 16)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(open + 1)..<firstEscape]))
        var i = firstEscape
        while i < end {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                pos = i + 1
                return String(decoding: out, as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") {
                i = try decodeEscape(at: i, into: &out)
            } else if c < 0x20 {
                throw controlCharacterError(at: i)
            } else if c < 0x80 {
                out.append(c)
                i += 1
            } else {
                let next = try validateUTF8Sequence(at: i)
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[i..<next]))
                i = next
            }
        }
        throw JSONParseError(offset: open, message: "unterminated string")
    }

    /// Decodes the escape whose backslash is at `at`, appends its UTF-8 and returns the next offset.
    private func decodeEscape(at start: Int, into out: inout [UInt8]) throws(JSONParseError) -> Int {
        guard start + 1 < end else {
            throw JSONParseError(offset: start, message: "unterminated string")
        }
        let simple: UInt8
        switch bytes[start + 1] {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            return try decodeUnicodeEscape(at: start, into: &out)
        default:
            let c = bytes[start + 1]
            let message =
                (0x21...0x7E).contains(c)
                ? "invalid escape '\\\(Character(Unicode.Scalar(c)))'"
                : "invalid escape (backslash followed by byte \(Self.hexByte(c)))"
            throw JSONParseError(offset: start, message: message)
        }
        out.append(simple)
        return start + 2
    }

    /// Decodes `\uXXXX` (and the low half of a surrogate pair) at `start`.
    private func decodeUnicodeEscape(at start: Int, into out: inout [UInt8]) throws(JSONParseError) -> Int {
        let unit = try hexQuad(at: start + 2, escape: start)
        var scalarValue = UInt32(unit)
        var next = start + 6
        if (0xDC00...0xDFFF).contains(unit) {
            throw JSONParseError(offset: start, message: "lone surrogate \\u\(Self.hexUnit(unit))")
        }
        if (0xD800...0xDBFF).contains(unit) {
            guard next + 1 < end, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else {
                throw JSONParseError(offset: start, message: "lone surrogate \\u\(Self.hexUnit(unit))")
            }
            let low = try hexQuad(at: next + 2, escape: next)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONParseError(offset: start, message: "lone surrogate \\u\(Self.hexUnit(unit))")
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
        }
        Self.appendUTF8(scalarValue, to: &out)
        return next
    }

    /// Reads four hex digits at `offset` for the escape starting at `escape`.
    private func hexQuad(at offset: Int, escape: Int) throws(JSONParseError) -> UInt16 {
        guard offset + 4 <= end else {
            throw JSONParseError(offset: escape, message: "invalid \\u escape (expected 4 hex digits)")
        }
        var value: UInt16 = 0
        for index in offset..<(offset + 4) {
            let c = bytes[index]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default:
                throw JSONParseError(offset: escape, message: "invalid \\u escape (expected 4 hex digits)")
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Checks the multi-byte UTF-8 sequence whose lead byte is at `start`; returns the offset after it.
    /// Rejects overlong forms, UTF-8-encoded surrogates, code points above U+10FFFF and truncation.
    @inline(__always)
    func validateUTF8Sequence(at start: Int) throws(JSONParseError) -> Int {
        let lead = bytes[start]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw JSONParseError(offset: start, message: "invalid UTF-8")
        }
        guard start + length <= end else {
            throw JSONParseError(offset: start, message: "invalid UTF-8")
        }
        let second = bytes[start + 1]
        guard second >= low, second <= high else {
            throw JSONParseError(offset: start, message: "invalid UTF-8")
        }
        for index in (start + 2)..<(start + length) where bytes[index] & 0xC0 != 0x80 {
            throw JSONParseError(offset: start, message: "invalid UTF-8")
        }
        return start + length
    }

    private func controlCharacterError(at offset: Int) -> JSONParseError {
        JSONParseError(
            offset: offset,
            message: "raw control character \(Self.hexByte(bytes[offset])) in a string (must be escaped)")
    }

    /// Four upper-case hex digits.
    static func hexUnit(_ unit: UInt16) -> String {
        String(hexByte(UInt8(unit >> 8)).dropFirst(2) + hexByte(UInt8(unit & 0xFF)).dropFirst(2))
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value (never a surrogate).
    static func appendUTF8(_ value: UInt32, to out: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            out.append(UInt8(value))
        case 0x80..<0x800:
            out.append(0xC0 | UInt8(value >> 6))
            out.append(0x80 | UInt8(value & 0x3F))
        case 0x800..<0x10000:
            out.append(0xE0 | UInt8(value >> 12))
            out.append(0x80 | UInt8((value >> 6) & 0x3F))
            out.append(0x80 | UInt8(value & 0x3F))
        default:
            out.append(0xF0 | UInt8(value >> 18))
            out.append(0x80 | UInt8((value >> 12) & 0x3F))
            out.append(0x80 | UInt8((value >> 6) & 0x3F))
            out.append(0x80 | UInt8(value & 0x3F))
        }
    }
}
