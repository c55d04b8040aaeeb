// JSON Pointer (RFC 6901): the section 5 examples plus parsing and array-index rules.

import QuerydJSON
import Testing

@Suite("JSON Pointer")
struct PointerTests {
    static let document: JSONValue = [
        "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7,
        "m~n": 8,
    ]

    static let rfcExamples: [(String, JSONValue)] = [
        ("", document),
        ("/foo", ["bar", "baz"]),
        ("/foo/0", "bar"),
        ("/", 0),
        ("/a~1b", 1),
        ("/c%d", 2),
        ("/e^f", 3),
        ("/g|h", 4),
        ("/i\\j", 5),
        ("/k\"l", 6),
        ("/ ", 7),
        ("/m~0n", 8),
    ]

    @Test("RFC 6901 section 5", arguments: 0..<rfcExamples.count)
    func rfcExample(index: Int) throws {
        let (text, expected) = Self.rfcExamples[index]
        #expect(try JSONPointer(text).resolve(in: Self.document) == expected)
    }

    @Test func rfcDocumentParsesFromItsJSONText() throws {
        let text = #"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}"#
        #expect(try JSONParser.parse(text) == Self.document)
    }

    @Test func tokensAreUnescaped() throws {
        #expect(try JSONPointer("").tokens == [])
        #expect(try JSONPointer("/").tokens == [""])
        #expect(try JSONPointer("//").tokens == ["", ""])
        #expect(try JSONPointer("/a~1b/m~0n").tokens == ["a/b", "m~n"])
        // "~01" is "~1" (not "/"): unescape ~1 before ~0 would be wrong.
        #expect(try JSONPointer("/~01").tokens == ["~1"])
        #expect(try JSONPointer("/params/key/1").tokens == ["params", "key", "1"])
    }

    @Test func invalidTextIsRejected() {
        #expect(throws: JSONPointerError(message: "a JSON Pointer must be empty or start with '/'")) {
            try JSONPointer("foo")
        }
        #expect(throws: JSONPointerError(message: "'~' must be followed by '0' or '1' in a JSON Pointer")) {
            try JSONPointer("/a~2")
        }
        #expect(throws: JSONPointerError.self) { try JSONPointer("/a~") }
        #expect(throws: JSONPointerError.self) { try JSONPointer("#/foo") }
    }

    @Test func arrayIndexRules() throws {
        let list: JSONValue = ["a", "b", "c"]
        #expect(try JSONPointer("/0").resolve(in: list) == "a")
        #expect(try JSONPointer("/2").resolve(in: list) == "c")
        #expect(try JSONPointer("/3").resolve(in: list) == nil)
        #expect(try JSONPointer("/-").resolve(in: list) == nil)
        #expect(try JSONPointer("/01").resolve(in: list) == nil)
        #expect(try JSONPointer("/+1").resolve(in: list) == nil)
        #expect(try JSONPointer("/-1").resolve(in: list) == nil)
        #expect(try JSONPointer("/1.0").resolve(in: list) == nil)
        #expect(try JSONPointer("/").resolve(in: list) == nil)
        #expect(try JSONPointer("/99999999999999999999999").resolve(in: list) == nil)
        // In an object, digit tokens are ordinary member names.
        #expect(try JSONPointer("/01").resolve(in: ["01": true]) == true)
    }

    @Test func resolvingThroughScalarsFails() throws {
        #expect(try JSONPointer("/foo/0/x").resolve(in: Self.document) == nil)
        #expect(try JSONPointer("/missing").resolve(in: Self.document) == nil)
        #expect(try JSONPointer("").resolve(in: 5) == 5)
        #expect(try JSONPointer("/a").resolve(in: 5) == nil)
    }

    @Test func descriptionEscapesTokens() throws {
        #expect(JSONPointer(tokens: ["a/b", "m~n", "0"]).description == "/a~1b/m~0n/0")
        #expect(JSONPointer(tokens: []).description == "")
        let pointer = try JSONPointer("/a~1b/~01/é")
        #expect(try JSONPointer(pointer.description) == pointer)
    }
}
