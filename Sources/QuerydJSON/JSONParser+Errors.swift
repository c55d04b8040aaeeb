// Error messages for the JSON parser: turns the byte that stopped parsing into a short sentence,
// with hints for the usual non-JSON habits (comments, single quotes, unquoted names, UTF-16).

extension JSONReader {
    /// The error for a byte that cannot start a value.
    func unexpectedByte(at offset: Int) -> JSONParseError {
        let c = bytes[offset]
        let message: String
        switch c {
        case 0x00:
            message = "unexpected NUL byte (JSON text must be UTF-8)"
        case UInt8(ascii: "/"):
            message = "unexpected character '/' (comments are not allowed)"
        case UInt8(ascii: "'"):
            message = "unexpected character ''' (strings must use double quotes)"
        case UInt8(ascii: "+"), UInt8(ascii: "."):
            message = "unexpected character '\(Character(Unicode.Scalar(c)))' (not a valid JSON number)"
        case 0x21...0x7E:
            message = "unexpected character '\(Character(Unicode.Scalar(c)))'"
        default:
            message = "unexpected byte \(Self.hexByte(c))"
        }
        return JSONParseError(offset: offset, message: message)
    }

    /// The error for a byte found where a separator or closing bracket was required.
    func separatorError(at offset: Int, expected: String) -> JSONParseError {
        let c = bytes[offset]
        if c == UInt8(ascii: "/") {
            return JSONParseError(offset: offset, message: "expected \(expected) (comments are not allowed)")
        }
        let found = (0x21...0x7E).contains(c) ? "'\(Character(Unicode.Scalar(c)))'" : "byte \(Self.hexByte(c))"
        return JSONParseError(offset: offset, message: "expected \(expected) but found \(found)")
    }

    /// The error for an object member that does not start with a double-quoted name.
    func memberNameError(at offset: Int) -> JSONParseError {
        let c = bytes[offset]
        let message: String
        switch c {
        case UInt8(ascii: "'"):
            message = "expected a member name in double quotes (single quotes are not allowed)"
        case UInt8(ascii: "/"):
            message = "expected a member name in double quotes (comments are not allowed)"
        default:
            message = "expected a member name in double quotes"
        }
        return JSONParseError(offset: offset, message: message)
    }

    /// "0x" and two upper-case hex digits.
    static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// A member name as JSON text for messages, shortened when long.
    static func quoted(_ name: String) -> String {
        let shown = name.unicodeScalars.count > 64 ? String(name.unicodeScalars.prefix(64)) + "…" : name
        var buffer: [UInt8] = []
        JSONWriter.writeString(shown, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
