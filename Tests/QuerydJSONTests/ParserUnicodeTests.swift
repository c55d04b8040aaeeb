// UTF-8 validation, surrogate escapes, duplicate member names and the BOM.

import QuerydJSON
import Testing

@Suite("Parser Unicode and I-JSON rules")
struct ParserUnicodeTests {
    /// Invalid UTF-8 inside a string literal: (name, bytes between the quotes).
    static let invalidUTF8: [(String, [UInt8])] = [
        ("C3 28 (bad continuation)", [0xC3, 0x28]),
        ("FF", [0xFF]),
        ("FE", [0xFE]),
        ("lone continuation 80", [0x80]),
        ("lone continuation BF", [0xBF]),
        ("truncated 2-byte", [0xC3]),
        ("truncated 3-byte", [0xE2, 0x82]),
        ("truncated 4-byte", [0xF0, 0x9F, 0x98]),
        ("overlong C0 AF", [0xC0, 0xAF]),
        ("overlong C1 BF", [0xC1, 0xBF]),
        ("overlong E0 80 AF", [0xE0, 0x80, 0xAF]),
        ("overlong F0 80 80 AF", [0xF0, 0x80, 0x80, 0xAF]),
        ("UTF-8 surrogate U+D800", [0xED, 0xA0, 0x80]),
        ("UTF-8 surrogate U+DFFF", [0xED, 0xBF, 0xBF]),
        ("above U+10FFFF (F4 90 80 80)", [0xF4, 0x90, 0x80, 0x80]),
        ("F5 lead", [0xF5, 0x80, 0x80, 0x80]),
        ("third byte not continuation", [0xE2, 0x82, 0x41]),
        ("fourth byte not continuation", [0xF0, 0x9F, 0x98, 0x41]),
    ]

    @Test("invalid UTF-8 in a string is rejected at the lead byte", arguments: 0..<invalidUTF8.count)
    func rejectsInvalidUTF8(index: Int) {
        let (name, sequence) = Self.invalidUTF8[index]
        let input: [UInt8] = [0x5B, 0x22, 0x61] + sequence + [0x22, 0x5D]  // ["a<seq>"]
        #expect(parseError(input) == JSONParseError(offset: 3, message: "invalid UTF-8"), "\(name)")
    }

    @Test func invalidUTF8InAnEscapedStringIsRejectedToo() {
        let input: [UInt8] = [0x22, 0x5C, 0x6E, 0xC0, 0xAF, 0x22]  // "\n<C0 AF>"
        #expect(parseError(input) == JSONParseError(offset: 3, message: "invalid UTF-8"))
    }

    @Test func invalidUTF8OutsideStringsIsRejected() {
        #expect(parseError([0xFF]) == JSONParseError(offset: 0, message: "unexpected byte 0xFF"))
    }

    @Test func boundaryScalarsAreAccepted() throws {
        let cases: [([UInt8], String)] = [
            ([0xC2, 0x80], "\u{80}"),
            ([0xDF, 0xBF], "\u{7FF}"),
            ([0xE0, 0xA0, 0x80], "\u{800}"),
            ([0xED, 0x9F, 0xBF], "\u{D7FF}"),
            ([0xEE, 0x80, 0x80], "\u{E000}"),
            ([0xEF, 0xBF, 0xBF], "\u{FFFF}"),
            ([0xF0, 0x90, 0x80, 0x80], "\u{10000}"),
            ([0xF4, 0x8F, 0xBF, 0xBF], "\u{10FFFF}"),
        ]
        for (sequence, expected) in cases {
            let value = try JSONParser.parse([0x22] + sequence + [0x22])
            #expect(value == .string(expected))
        }
    }

    @Test func loneSurrogateEscapesAreRejected() {
        #expect(parseError(#"["\uD800"]"#) == JSONParseError(offset: 2, message: #"lone surrogate \uD800"#))
        #expect(parseError(#"["\udc00"]"#) == JSONParseError(offset: 2, message: #"lone surrogate \uDC00"#))
        #expect(parseError(#"["ab\uDBFFx"]"#) == JSONParseError(offset: 4, message: #"lone surrogate \uDBFF"#))
        #expect(parseError(#"["\uD800\n"]"#) == JSONParseError(offset: 2, message: #"lone surrogate \uD800"#))
        #expect(parseError(#"["\uD800\u0041"]"#) == JSONParseError(offset: 2, message: #"lone surrogate \uD800"#))
        #expect(parseError(#"["\uD800\uD800"]"#) == JSONParseError(offset: 2, message: #"lone surrogate \uD800"#))
    }

    @Test func surrogatePairsCombine() throws {
        #expect(try JSONParser.parse(#""\uD83D\uDE00""#) == "😀")
        #expect(try JSONParser.parse(#""\ud800\udc00""#) == "\u{10000}")
        #expect(try JSONParser.parse(#""\uDBFF\uDFFF""#) == "\u{10FFFF}")
        #expect(try JSONParser.parse(#""x\u00e9\uD834\uDD1Ey""#) == "xé𝄞y")
    }

    @Test func duplicateMemberNamesAreRejected() {
        #expect(parseError(#"{"a":1,"a":1}"#) == JSONParseError(offset: 7, message: #"duplicate member name "a""#))
        #expect(
            parseError(#"{"x":{"b":1,"b":2}}"#) == JSONParseError(offset: 12, message: #"duplicate member name "b""#))
        // Escapes are decoded before comparing: "\u0061" is "a".
        #expect(
            parseError(#"{"a":1,"\u0061":2}"#) == JSONParseError(offset: 7, message: #"duplicate member name "a""#))
        // Same name in different objects is fine.
        #expect(parsed(#"[{"a":1},{"a":2}]"#) == [["a": 1], ["a": 2]])
    }

    @Test func duplicateNameMessageIsEscapedAndShortened() {
        #expect(
            parseError("{\"a\\nb\":1,\"a\\nb\":2}")
                == JSONParseError(offset: 10, message: #"duplicate member name "a\nb""#))
        let long = String(repeating: "k", count: 100)
        let error = parseError("{\"\(long)\":1,\"\(long)\":2}")
        #expect(error?.message == "duplicate member name \"\(String(repeating: "k", count: 64))…\"")
    }

    @Test func leadingBOMIsRejectedWithAClearMessage() {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
        #expect(parseError(input) == JSONParseError(offset: 0, message: "a UTF-8 byte order mark (BOM) is not allowed"))
        #expect(
            parseError([0xEF, 0xBB, 0xBF])
                == JSONParseError(offset: 0, message: "a UTF-8 byte order mark (BOM) is not allowed"))
        // A BOM inside a string is just U+FEFF.
        #expect(parsed("\"\u{FEFF}\"") == "\u{FEFF}")
    }

    @Test func rawControlCharactersInStringsAreRejected() {
        for byte in UInt8(0)..<0x20 {
            let error = parseError([0x22, byte, 0x22])
            #expect(error?.offset == 1)
            #expect(error?.message.hasPrefix("raw control character") == true)
        }
        #expect(parsed("\"\u{7F}\"") == "\u{7F}")
    }

    @Test func specialBytesAreFoundAtEveryPositionOfLongStrings() throws {
        // The scanner skips eight plain bytes at a time; check each special byte at each offset.
        for length in 1...24 {
            for position in 0..<length {
                var plain = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                plain[position] = 0x0A
                #expect(
                    parseError([0x22] + plain + [0x22])
                        == JSONParseError(
                            offset: 1 + position, message: "raw control character 0x0A in a string (must be escaped)"))
                plain[position] = 0xFF
                #expect(
                    parseError([0x22] + plain + [0x22])
                        == JSONParseError(offset: 1 + position, message: "invalid UTF-8"))
                plain[position] = UInt8(ascii: "\"")
                #expect(
                    parseError([0x22] + plain + [0x22])
                        == JSONParseError(
                            offset: 2 + position,
                            message: "trailing characters after the JSON value (one JSON value per line)"))
                var escaped = Array(String(repeating: "y", count: length).utf8)
                escaped.insert(contentsOf: Array("\\u00e9".utf8), at: position)
                let expected =
                    String(repeating: "y", count: position) + "é" + String(repeating: "y", count: length - position)
                #expect(try JSONParser.parse([0x22] + escaped + [0x22]) == .string(expected))
                var accented = Array(String(repeating: "z", count: length).utf8)
                accented.insert(contentsOf: [0xC3, 0xA9], at: position)
                #expect(try JSONParser.parse([0x22] + accented + [0x22]).stringValue?.utf8.count == length + 2)
            }
        }
    }

    @Test func escapedNULIsData() throws {
        let value = try JSONParser.parse(#"{"k\u0000":"v\u0000w"}"#)
        #expect(value["k\u{0}"] == .string("v\u{0}w"))
        #expect(value.encodedString == #"{"k\u0000":"v\u0000w"}"#)
    }
}
