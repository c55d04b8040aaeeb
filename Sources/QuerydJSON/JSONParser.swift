// The strict JSON parser: RFC 8259 grammar restricted to I-JSON (RFC 7493).
//
// A recursive-descent reader over raw bytes. It accepts exactly one value surrounded by optional
// whitespace, rejects invalid UTF-8, lone surrogates, duplicate member names, a leading BOM and
// numbers outside the IEEE 754 double range, and checks nesting depth before every descent so
// hostile input cannot exhaust the native stack. Strings, numbers and error messages live in the
// sibling files. (An explicit-stack variant was measured 45% slower, and destroying a JSONValue
// recurses per level anyway, so depth must stay bounded either way.)

/// Why a JSON text was rejected: the byte offset where the problem was found and a short sentence.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Zero-based byte offset into the input where the problem was detected.
    public let offset: Int
    /// A short human-readable sentence, such as "unterminated string".
    public let message: String

    /// Creates an error at `offset` with `message`.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The message followed by the offset, for logs.
    public var description: String { "\(message) (at byte \(offset))" }
}

/// Parses one JSON text into a `JSONValue`.
///
/// Depth: a scalar has depth 0 and every array or object adds one level around its contents,
/// so `[]` and `{}` have depth 1 and `[[1]]` has depth 2. A text whose depth exceeds `maxDepth`
/// is rejected at the bracket that opens level `maxDepth + 1`, before anything below it is read,
/// so `[` repeated 100,000 times fails after `maxDepth` steps.
///
/// Stack use: the parser recurses once per level (about 200 bytes per level in release builds,
/// about 2.3 KB in debug builds), and so does destroying a nested `JSONValue`. Keep `maxDepth`
/// within `JSONNestingLimit.maximumDepth` of the thread's stack; the default 512 needs about
/// 100 KB of stack in release builds.
public enum JSONParser {
    /// Parses exactly one JSON value from UTF-8 bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512) throws(JSONParseError)
        -> JSONValue
    {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        return try reader.parseDocument()
    }

    /// Parses exactly one JSON value from UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) in try parse(raw, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from UTF-8 bytes; offsets are relative to the slice start.
    public static func parse(_ bytes: ArraySlice<UInt8>, maxDepth: Int = 512) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) in try parse(raw, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from the UTF-8 form of `text`.
    public static func parse(_ text: String, maxDepth: Int = 512) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { utf8 in
            Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(utf8), maxDepth: maxDepth) }
        }
        return try result.get()
    }
}

extension JSONReader {
    /// An empty dictionary with room for 6 members. Each object starts as a copy of it: the first
    /// insertion copies the storage in code specialized for this module, which is much cheaper than
    /// `reserveCapacity` on a fresh dictionary (that path looks up generic metadata at run time for
    /// every object). Larger objects grow as usual.
    static let smallMembers = [String: JSONValue](minimumCapacity: 6)
}

/// The parsing state: the input, the read position and the current nesting depth.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    let end: Int
    let maxDepth: Int
    var pos = 0
    var depth = 0

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.end = bytes.count
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw JSONParseError(offset: 0, message: "a UTF-8 byte order mark (BOM) is not allowed")
        }
        skipWhitespace()
        if pos == end {
            throw JSONParseError(offset: pos, message: end == 0 ? "empty input" : "no JSON value (only whitespace)")
        }
        let value = try parseValue()
        skipWhitespace()
        if pos != end {
            throw JSONParseError(
                offset: pos, message: "trailing characters after the JSON value (one JSON value per line)")
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < end {
            let c = bytes[pos]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            pos += 1
        }
    }

    /// Parses the value starting at `pos`, which must be in bounds and not whitespace.
    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        switch bytes[pos] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return try parseObject()
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw unexpectedByte(at: pos)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            guard end - pos >= count else { return false }
            for index in 0..<count where bytes[pos + index] != expected[index] { return false }
            return true
        }
        guard matches else {
            throw JSONParseError(offset: pos, message: "invalid literal (expected '\(literal)')")
        }
        pos += count
    }

    mutating func enterContainer() throws(JSONParseError) {
        guard depth < maxDepth else {
            throw JSONParseError(offset: pos, message: "nesting deeper than \(maxDepth) levels")
        }
        depth += 1
        pos += 1
    }

    /// After a comma, rejects a closing bracket (a trailing comma such as `[1,]`). The caller's loop
    /// reports the end of input.
    @inline(__always)
    mutating func rejectTrailingComma(closing: UInt8) throws(JSONParseError) {
        skipWhitespace()
        if pos < end, bytes[pos] == closing {
            throw JSONParseError(offset: pos, message: "trailing comma before '\(Character(Unicode.Scalar(closing)))'")
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        skipWhitespace()
        if pos < end, bytes[pos] == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            return .array([])
        }
        var items: [JSONValue] = []
        items.reserveCapacity(4)
        while true {
            skipWhitespace()
            guard pos < end else {
                throw JSONParseError(offset: pos, message: "unexpected end of input (unterminated array)")
            }
            let element = try parseValue()
            items.append(element)
            skipWhitespace()
            guard pos < end else {
                throw JSONParseError(offset: pos, message: "unexpected end of input (unterminated array)")
            }
            let c = bytes[pos]
            pos += 1
            if c == UInt8(ascii: "]") { break }
            guard c == UInt8(ascii: ",") else {
                throw separatorError(at: pos - 1, expected: "',' or ']'")
            }
            try rejectTrailingComma(closing: UInt8(ascii: "]"))
        }
        depth -= 1
        return .array(items)
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        skipWhitespace()
        if pos < end, bytes[pos] == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            return .object([:])
        }
        var members = Self.smallMembers
        while true {
            skipWhitespace()
            guard pos < end else {
                throw JSONParseError(offset: pos, message: "unexpected end of input (unterminated object)")
            }
            guard bytes[pos] == UInt8(ascii: "\"") else {
                throw memberNameError(at: pos)
            }
            let nameOffset = pos
            let name = try parseString()
            skipWhitespace()
            guard pos < end, bytes[pos] == UInt8(ascii: ":") else {
                if pos == end {
                    throw JSONParseError(offset: pos, message: "unexpected end of input (unterminated object)")
                }
                throw JSONParseError(offset: pos, message: "expected ':' after the member name")
            }
            pos += 1
            skipWhitespace()
            guard pos < end else {
                throw JSONParseError(offset: pos, message: "unexpected end of input (unterminated object)")
            }
            let value = try parseValue()
            if members.updateValue(value, forKey: name) != nil {
                throw JSONParseError(offset: nameOffset, message: "duplicate member name \(Self.quoted(name))")
            }
            skipWhitespace()
            guard pos < end else {
                throw JSONParseError(offset: pos, message: "unexpected end of input (unterminated object)")
            }
            let c = bytes[pos]
            pos += 1
            if c == UInt8(ascii: "}") { break }
            guard c == UInt8(ascii: ",") else {
                throw separatorError(at: pos - 1, expected: "',' or '}'")
            }
            try rejectTrailingComma(closing: UInt8(ascii: "}"))
        }
        depth -= 1
        return .object(members)
    }
}
