// The canonical encoder against a plain reference encoding (members sorted with
// `Array.lexicographicallyPrecedes` on UTF-8, every byte escaped one at a time), over objects
// small and large (both sides of the in-stack sort), shared name prefixes, escapes, strings of
// every short length with a byte needing escaping at every place (the word-at-a-time copy), and
// output longer than the encoder's staging buffer, through both `encoded` and `withEncoding`.

import QuerydJSON
import Testing

@Suite("Canonical encoding against a reference")
struct EncodingReferenceTests {
    /// The canonical encoding written the straightforward way.
    static func reference(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return number.description
        case .string(let text): return quoted(text)
        case .array(let items): return "[" + items.map(reference).joined(separator: ",") + "]"
        case .object(let members):
            let sorted = members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            return "{" + sorted.map { quoted($0.key) + ":" + reference($0.value) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u00" + (hex.count == 1 ? "0" + hex : hex)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Names chosen to stress the order: shared prefixes longer than eight bytes, names that
    /// differ only by trailing NULs, escapes, non-ASCII, the empty name.
    static let names: [String] = [
        "", "a", "a\u{0}", "a\u{0}\u{0}", "b", "ab", "abcdefgh", "abcdefgh\u{0}", "abcdefghi", "abcdefgha",
        "abcdefgg", "abcdefgz", "longer shared prefix 1", "longer shared prefix 2", "longer shared prefix",
        "quote\"", "back\\slash", "tab\t", "ctrl\u{1}", "é", "e\u{301}", "€", "😀", "\u{FFFD}", "\u{10000}",
        "\u{2028}", "Z", "~", "zzzzzzzzzzzzzzzzzzzz", "id", "title", "body", "done",
    ]

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    static func object(memberCount: Int, depth: Int, _ generator: inout Generator) -> JSONValue {
        var members: [String: JSONValue] = [:]
        // At most half the names (some are equal as Strings, e.g. "é" and "e\u{301}"); the rest
        // get distinct made-up names.
        for _ in 0..<min(memberCount, names.count / 2) {
            members[names[generator.next(names.count)]] = leaf(depth: depth, &generator)
        }
        var extra = 0
        while members.count < memberCount {
            members["extra \(extra)"] = leaf(depth: depth, &generator)
            extra += 1
        }
        return .object(members)
    }

    static func leaf(depth: Int, _ generator: inout Generator) -> JSONValue {
        switch generator.next(depth > 0 ? 8 : 6) {
        case 0: return nil
        case 1: return .bool(generator.next(2) == 0)
        case 2: return .number(JSONNumber(Int64(generator.next(1_000_000)) - 500_000))
        case 3: return .number(JSONNumber(Double(generator.next(1000)) / 8))
        case 4: return .string(names[generator.next(names.count)])
        case 5: return .string(String(repeating: "x\u{1}é\"", count: generator.next(100)))
        case 6: return object(memberCount: generator.next(6), depth: depth - 1, &generator)
        default: return .array((0..<generator.next(4)).map { _ in leaf(depth: depth - 1, &generator) })
        }
    }

    @Test("objects of 0 to 40 members match the reference", arguments: [0, 1, 2, 3, 5, 8, 15, 16, 17, 33, 40])
    func objectsMatchTheReference(memberCount: Int) {
        var generator = Generator(state: 0x9E37_79B9_7F4A_7C15 &+ UInt64(memberCount))
        for _ in 0..<20 {
            let value = Self.object(memberCount: memberCount, depth: 3, &generator)
            #expect(value.encodedString == Self.reference(value))
        }
    }

    @Test func everyNameSortsAsItsBytes() {
        var members: [String: JSONValue] = [:]
        for (index, name) in Self.names.enumerated() { members[name] = .number(JSONNumber(index)) }
        let value = JSONValue.object(members)
        #expect(value.encodedString == Self.reference(value))
        // The same names in objects small enough for the in-stack sort, in every pair.
        for first in Self.names {
            for second in Self.names where first != second {
                let pair: JSONValue = .object([first: true, second: false])
                #expect(pair.encodedString == Self.reference(pair))
            }
        }
    }

    /// Expects `value`'s encoding, as an array and as `withEncoding` gives it, to be the reference.
    static func expectReference(_ value: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = reference(value)
        #expect(value.encodedString == expected, sourceLocation: sourceLocation)
        var given: [UInt8] = []
        value.withEncoding { given = Array($0) }
        #expect(String(decoding: given, as: UTF8.self) == expected, sourceLocation: sourceLocation)
    }

    @Test func stringsOfEveryShortLengthMatchTheReference() {
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{7F}", "é", "€", "😀", "\u{2028}", "\u{2029}"]
        for length in 0...40 {
            let plain = (0..<length).map { String(UnicodeScalar(UInt8(0x61 + $0 % 26))) }
            Self.expectReference(.string(plain.joined()))
            Self.expectReference(.object([plain.joined(): .string(plain.joined())]))
            for place in plain.indices {
                for special in specials {
                    var text = plain
                    text[place] = special
                    Self.expectReference(.string(text.joined()))
                    Self.expectReference(.object([text.joined(): true, plain.joined(): false]))
                }
            }
        }
    }

    @Test func stringsAcrossTheStagingBoundaryMatchTheReference() {
        // A first string fills the staging buffer (512 bytes) to every level near full; the second
        // then fits, needs a flush first, or is longer than the buffer.
        for fill in stride(from: 470, through: 520, by: 1) {
            for length in [0, 1, 5, 8, 13, 30, 500, 501, 502, 503, 510, 511, 512, 513, 1200] {
                let value: JSONValue = [
                    .string(String(repeating: "f", count: fill)), .string(String(repeating: "s", count: length)),
                    .string(String(repeating: "é", count: length / 2)), .number(JSONNumber(Int64.min)),
                ]
                Self.expectReference(value)
            }
        }
    }

    @Test func outputLongerThanTheStagingBufferIsWhole() {
        let long = String(repeating: "abc\"\u{2028}\n", count: 400)
        let value: JSONValue = ["b": .string(long), "a": .array((0..<300).map { .number(JSONNumber($0)) }), "c": "end"]
        Self.expectReference(value)
        var buffer = Array(repeating: UInt8(ascii: "."), count: 1000)
        value.write(to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == String(repeating: ".", count: 1000) + Self.reference(value))
    }
}
