// The strict JSON parser: RFC 8259 grammar restricted to I-JSON (RFC 7493).
//
// A recursive-descent reader over raw bytes. It accepts exactly one value surrounded by optional
// whitespace, rejects invalid UTF-8, lone surrogates, duplicate member names, a leading BOM and
// numbers outside the IEEE 754 double range, and bounds nesting depth before every descent so
// hostile input cannot exhaust the native stack. Strings and numbers live in the sibling files.

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
/// is rejected before the parser descends into the offending container; the parser recurses
/// at most `maxDepth` levels, so keep `maxDepth` modest (the default is 512).
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
    /// Empty dictionaries with room for 6 and 24 members. Copying one (copy-on-write, in code
    /// specialized for this module) is much cheaper than a fresh `reserveCapacity`, which goes
    /// through a generic runtime metadata lookup for every object parsed.
    private static let smallMembers = [String: JSONValue](minimumCapacity: 6)
    private static let mediumMembers = [String: JSONValue](minimumCapacity: 24)

    /// An empty dictionary able to hold `capacity` members without growing.
    @inline(__always)
    static func emptyMembers(capacity: Int) -> [String: JSONValue] {
        if capacity <= 6 { return smallMembers }
        if capacity <= 24 { return mediumMembers }
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(capacity)
        return members
    }
}

/// An object member parsed but not yet placed in its dictionary.
struct PendingMember {
    let name: String
    let offset: Int
    let value: JSONValue
}

/// The parsing state: the input, the read position and the current nesting depth.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    let end: Int
    let maxDepth: Int
    var pos = 0
    var depth = 0
    /// Elements of the arrays being parsed, innermost last; reused so each array is built at its final size.
    var elementStack: [JSONValue] = []
    /// Members of the objects being parsed, innermost last; reused so each dictionary is sized once.
    var memberStack: [PendingMember] = []

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.end = bytes.count
        self.maxDepth = maxDepth
        elementStack.reserveCapacity(16)
        memberStack.reserveCapacity(16)
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

    /// Skips whitespace before a value inside a container and checks that one starts there.
    mutating func startOfElement(closing: UInt8, container: String) throws(JSONParseError) {
        skipWhitespace()
        guard pos < end else {
            throw JSONParseError(offset: pos, message: "unexpected end of input (unterminated \(container))")
        }
        if bytes[pos] == closing {
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
        let base = elementStack.count
        while true {
            skipWhitespace()
            guard pos < end else {
                throw JSONParseError(offset: pos, message: "unexpected end of input (unterminated array)")
            }
            let element = try parseValue()
            elementStack.append(element)
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
            try startOfElement(closing: UInt8(ascii: "]"), container: "array")
        }
        depth -= 1
        let items = Array(elementStack[base...])
        elementStack.removeSubrange(base...)
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
        let base = memberStack.count
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
            memberStack.append(PendingMember(name: name, offset: nameOffset, value: value))
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
            try startOfElement(closing: UInt8(ascii: "}"), container: "object")
        }
        depth -= 1
        var members = Self.emptyMembers(capacity: memberStack.count - base)
        for index in base..<memberStack.count {
            let member = memberStack[index]
            if members.updateValue(member.value, forKey: member.name) != nil {
                throw JSONParseError(offset: member.offset, message: "duplicate member name \(Self.quoted(member.name))")
            }
        }
        memberStack.removeSubrange(base...)
        return .object(members)
    }
}
