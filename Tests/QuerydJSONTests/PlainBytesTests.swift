// The word-at-a-time scanning in the parser and the encoder agrees with byte-by-byte rules for
// every ASCII byte in every position of an eight-byte word.

import QuerydJSON
import Testing

@Suite("Word-at-a-time scanning")
struct PlainBytesTests {
    /// A straightforward reference for the encoder's escaping rules.
    static func referenceEncoding(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += Array(#"\""#.utf8)
            case "\\": out += Array(#"\\"#.utf8)
            case "\n": out += Array(#"\n"#.utf8)
            case "\r": out += Array(#"\r"#.utf8)
            case "\t": out += Array(#"\t"#.utf8)
            case "\u{8}": out += Array(#"\b"#.utf8)
            case "\u{C}": out += Array(#"\f"#.utf8)
            case "\u{2028}": out += Array(#"\u2028"#.utf8)
            case "\u{2029}": out += Array(#"\u2029"#.utf8)
            default:
                if scalar.value < 0x20 {
                    let hex = Array("0123456789abcdef".utf8)
                    out += Array(#"\u00"#.utf8) + [hex[Int(scalar.value >> 4)], hex[Int(scalar.value & 0xF)]]
                } else {
                    out += Array(String(scalar).utf8)
                }
            }
        }
        return out + [0x22]
    }

    @Test func encoderMatchesReferenceInEveryLane() {
        var scalars = (0..<0x80).map { Unicode.Scalar(UInt8($0)) }
        scalars += ["é", "\u{2028}", "\u{2029}", "\u{2027}", "😀", "\u{FFFF}"]
        for lane in 0..<16 {
            for scalar in scalars {
                let text = String(repeating: "a", count: lane) + String(scalar) + String(repeating: "b", count: 16)
                #expect(JSONValue.string(text).encoded == Self.referenceEncoding(text), "U+\(scalar.value) at \(lane)")
            }
        }
    }

    @Test func parserClassifiesEveryASCIIByteInEveryLane() throws {
        for lane in 0..<16 {
            for byte in UInt8(0)..<0x80 {
                var body = [UInt8](repeating: UInt8(ascii: "a"), count: 24)
                body[lane] = byte
                let input = [0x22] + body + [0x22]
                let result = parseResult(input)
                switch byte {
                case 0..<0x20:
                    if case .failure(let error) = result { #expect(error.offset == 1 + lane) } else { Issue.record() }
                case UInt8(ascii: "\""):
                    if case .failure(let error) = result { #expect(error.offset == 2 + lane) } else { Issue.record() }
                case UInt8(ascii: "\\"):
                    // "\a" is not a valid escape.
                    if case .failure(let error) = result {
                        #expect(error == JSONParseError(offset: 1 + lane, message: "invalid escape '\\a'"))
                    } else {
                        Issue.record()
                    }
                default:
                    #expect(try result.get().stringValue.map { Array($0.utf8) } == body)
                }
            }
        }
    }
}
