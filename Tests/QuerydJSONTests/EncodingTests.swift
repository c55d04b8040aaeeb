// The canonical encoder: compact output, member order by UTF-8 bytes, escaping, round trips.

import QuerydJSON
import Testing

@Suite("Canonical encoding")
struct EncodingTests {
    @Test func membersAreSortedByUTF8Bytes() throws {
        #expect(try JSONParser.parse(#"{"b":1,"a":2}"#).encodedString == #"{"a":2,"b":1}"#)
        let value: JSONValue = ["é": 1, "a": 2, "Z": 3, "": 4, "aa": 5, "a ": 6, "~": 7]
        #expect(value.encodedString == #"{"":4,"Z":3,"a":2,"a ":6,"aa":5,"~":7,"é":1}"#)
        // U+FFFD (EF BF BD) sorts before U+10000 (F0 90 80 80) by bytes, unlike UTF-16 order.
        let astral: JSONValue = ["\u{10000}": 1, "\u{FFFD}": 2]
        #expect(astral.encodedString == "{\"\u{FFFD}\":2,\"\u{10000}\":1}")
    }

    @Test func nestedObjectsAreSortedToo() {
        let value: JSONValue = ["z": ["y": 1, "x": [["b": true, "a": false]]], "a": nil]
        #expect(value.encodedString == #"{"a":null,"z":{"x":[{"a":false,"b":true}],"y":1}}"#)
    }

    @Test func equalValuesEncodeIdentically() throws {
        let first = try JSONParser.parse(#"{"b":[1,2.0,{"d":null,"c":"x"}],"a":1e0}"#)
        let second = try JSONParser.parse(#" { "a" : 1 , "b" : [ 1.0 , 2 , { "c" : "x" , "d" : null } ] } "#)
        #expect(first == second)
        #expect(first.encoded == second.encoded)
        #expect(first.encodedString == #"{"a":1,"b":[1,2,{"c":"x","d":null}]}"#)
    }

    @Test func scalarsEncodeCompactly() {
        #expect(JSONValue.null.encodedString == "null")
        #expect(JSONValue.bool(true).encodedString == "true")
        #expect(JSONValue.bool(false).encodedString == "false")
        #expect(JSONValue(integerLiteral: -42).encodedString == "-42")
        #expect(JSONValue(integerLiteral: 0).encodedString == "0")
        #expect(JSONValue.number(JSONNumber(Int64.min)).encodedString == "-9223372036854775808")
        #expect(JSONValue.array([]).encodedString == "[]")
        #expect(JSONValue.object([:]).encodedString == "{}")
        let mixed: JSONValue = [1, "a", nil, [true]]
        #expect(mixed.encodedString == #"[1,"a",null,[true]]"#)
    }

    @Test func integersEncodeAsTheirDecimalDigits() {
        var values: [Int64] = [.min, .max, .min + 1, -1, 1, 9, 10, 99, 100, 101, 999, 1_000, 1_763_791_234_567]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power + 1, -power, -power - 1]
        }
        values += (0..<1_000).map { _ in Int64.random(in: .min ... .max) }
        for value in values {
            var buffer: [UInt8] = [UInt8(ascii: "x")]
            JSONWriter.writeInteger(value, to: &buffer)
            #expect(buffer == Array("x\(value)".utf8))
            // The pointer variant writes the same digits and returns the address after them.
            let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { room in
                let end = JSONWriter.writeInteger(value, at: room.baseAddress!)
                return Array(UnsafeBufferPointer(start: room.baseAddress!, count: end - room.baseAddress!))
            }
            #expect(written == Array("\(value)".utf8))
        }
    }

    @Test func stringsAreEscapedExactly() {
        let value = JSONValue.string("a\nb\rc\u{0}d\u{2028}e\u{2029}f\"g\\h\ti\u{8}j\u{C}k\u{1F}l/m\u{7F}é😀")
        let expected = #""a\nb\rc\u0000d\u2028e\u2029f\"g\\h\ti\bj\fk\u001fl/m"# + "\u{7F}é😀\""
        #expect(value.encodedString == expected)
        #expect(!value.encoded.contains(0x0A))
        #expect(!value.encoded.contains(0x0D))
    }

    @Test func everyControlCharacterIsEscaped() throws {
        for scalar in 0..<0x20 {
            let text = String(Unicode.Scalar(UInt8(scalar)))
            let encoded = JSONValue.string(text).encoded
            #expect(!encoded.contains { $0 < 0x20 })
            #expect(try JSONParser.parse(encoded) == .string(text))
        }
        #expect(JSONValue.string("\u{1}").encodedString == #""\u0001""#)
        #expect(JSONValue.string("\u{1B}[2J").encodedString == #""\u001b[2J""#)
    }

    @Test func nearMissesOfU2028AreNotEscaped() {
        // U+2027 (E2 80 A7) and U+202A (E2 80 AA) share the lead bytes but stay raw.
        #expect(JSONValue.string("\u{2027}\u{202A}€").encodedString == "\"\u{2027}\u{202A}€\"")
    }

    @Test func writerHelpersAppend() {
        var buffer = Array("{\"id\":".utf8)
        JSONWriter.writeNumber(JSONNumber(7), to: &buffer)
        buffer.append(UInt8(ascii: ","))
        JSONWriter.writeString("k\"ey", to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        JSONWriter.writeNumber(JSONNumber(2.5), to: &buffer)
        buffer.append(UInt8(ascii: "}"))
        #expect(String(decoding: buffer, as: UTF8.self) == #"{"id":7,"k\"ey":2.5}"#)
        var appended: [UInt8] = [0x78]
        JSONValue.array([.number(JSONNumber(1))]).write(to: &appended)
        #expect(appended == Array("x[1]".utf8))
    }

    @Test func descriptionIsTheEncoding() {
        let value: JSONValue = ["b": [1, 2.5], "a": "x"]
        #expect(value.description == #"{"a":"x","b":[1,2.5]}"#)
        #expect("\(value)" == value.encodedString)
    }

    static let roundTrips: [JSONValue] = [
        nil, true, false, 0, -1, 1.5, -0.25, 1e300, .number(JSONNumber(Double.leastNonzeroMagnitude)),
        .number(JSONNumber(Int64.max)), .number(JSONNumber(Int64.min)),
        "", "plain", "quote\" backslash\\ slash/", "\u{0}\u{1}\u{1F}\n\r\t\u{8}\u{C}", "\u{2028}\u{2029}",
        "é€😀\u{10FFFF}\u{FFFF}\u{FEFF}",
        [], [[]], [:], ["": [:]],
        ["key": ["todos", 42, ["filter": "done"]], "id": 123, "jsonrpc": "2.0"],
        [1, "1", 1.5, nil, true, ["a": [false]]],
        ["a/b": 1, "m~n": 2, "k\"l": 3, "\u{0}": 4],
    ]

    @Test("parse(encode(v)) == v", arguments: 0..<roundTrips.count)
    func roundTrip(index: Int) throws {
        let value = Self.roundTrips[index]
        let reparsed = try JSONParser.parse(value.encoded)
        #expect(reparsed == value)
        #expect(reparsed.encoded == value.encoded)
        #expect(!value.encoded.contains(0x0A) && !value.encoded.contains(0x0D))
    }

    @Test func bigIntegerRoundTripsVerbatim() throws {
        let text = "[123456789012345678901234567890,-98765432109876543210]"
        #expect(try JSONParser.parse(text).encodedString == text)
    }
}
