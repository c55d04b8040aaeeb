// Inputs the parser must accept (modelled on JSONTestSuite y_ cases), with their exact values.

import QuerydJSON
import Testing

@Suite("Parser accepts valid JSON")
struct ParserAcceptTests {
    static let cases: [(String, JSONValue)] = [
        ("[]", []),
        ("{}", [:]),
        ("[[]   ]", [[]]),
        (" [1] ", [1]),
        ("\t\r\n [\n1\r,\t2 ] \n", [1, 2]),
        ("[\"\"]", [""]),
        ("[null]", [nil]),
        ("[true, false]", [true, false]),
        ("42", 42),
        ("-1", -1),
        ("\"asd\"", "asd"),
        ("null", nil),
        ("[-0]", [0]),
        ("[0e+1]", [0]),
        ("[0e1]", [0]),
        ("[1E22]", .array([.number(JSONNumber(1e22))])),
        ("[1.5E-2]", [0.015]),
        ("[123e45]", .array([.number(JSONNumber(123e45))])),
        ("[123.456e78]", .array([.number(JSONNumber(123.456e78))])),
        ("[1E+2]", [100]),
        ("[-0.000000000000000000000000000000000000000000000000000000000000000000000000000001]", [-1e-78]),
        ("{\"a\":\"b\",\"a_\":[]}", ["a": "b", "a_": []]),
        ("{\"\":0}", ["": 0]),
        ("{\"x\":[{\"id\":\"xxx\"}], \"y\" : {\"z\":null}}", ["x": [["id": "xxx"]], "y": ["z": nil]]),
        ("[\"\\u0060\\u012a\\u12AB\"]", ["`\u{12A}\u{12AB}"]),
        ("[\"\\uD801\\udc37\"]", ["\u{10437}"]),
        ("[\"\\ud83d\\ude00\"]", ["😀"]),
        ("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", ["\"\\/\u{8}\u{C}\n\r\t"]),
        ("[\"\\u0000\"]", ["\u{0}"]),
        ("[\"new\\u000Aline\"]", ["new\nline"]),
        ("[\"€𝄞\"]", ["€𝄞"]),
        ("[\"\u{2028}\u{2029}\"]", ["\u{2028}\u{2029}"]),
        ("[\"\\uFFFF\"]", ["\u{FFFF}"]),
        ("[\"\u{7F}\"]", ["\u{7F}"]),
        ("[\"a\\u0000b\"]", ["a\u{0}b"]),
    ]

    @Test("each y_ input parses to the expected value", arguments: 0..<cases.count)
    func acceptsValidInput(index: Int) throws {
        let (text, expected) = Self.cases[index]
        let value = try JSONParser.parse(text)
        #expect(value == expected, "input: \(text)")
    }

    @Test func overloadsAgree() throws {
        let text = #"{"jsonrpc":"2.0","id":123,"method":"query.get","params":{"key":["todos",42,{"filter":"done"}]}}"#
        let bytes = Array(text.utf8)
        let expected: JSONValue = [
            "jsonrpc": "2.0", "id": 123, "method": "query.get",
            "params": ["key": ["todos", 42, ["filter": "done"]]],
        ]
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(bytes) == expected)
        let padded = [0x20, 0x5B] + bytes + [0x5D]
        #expect(try JSONParser.parse(padded[2..<(padded.count - 1)]) == expected)
        let fromRaw = try bytes.withUnsafeBytes { raw in try JSONParser.parse(raw) }
        #expect(fromRaw == expected)
    }

    @Test func sliceOffsetsAreRelativeToTheSlice() {
        let bytes = Array("xx[1,]".utf8)
        let result = Result { () throws(JSONParseError) in try JSONParser.parse(bytes[2...]) }
        guard case .failure(let error) = result else {
            Issue.record("expected an error")
            return
        }
        #expect(error.offset == 3)
        #expect(error.message == "trailing comma before ']'")
    }

    @Test func rawNonASCIIIsKeptByteForByte() throws {
        let value = try JSONParser.parse("\"héllo wörld ✓ 😀\"")
        #expect(value.stringValue.map { Array($0.utf8) } == Array("héllo wörld ✓ 😀".utf8))
    }
}
