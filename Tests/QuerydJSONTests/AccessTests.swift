// Accessors, type names and literal conformances of JSONValue.

import QuerydJSON
import Testing

@Suite("Accessors and literals")
struct AccessTests {
    let document: JSONValue = [
        "name": "todo", "count": 3, "ratio": 0.5, "done": false, "none": nil,
        "tags": ["a", "b"], "meta": ["x": 1],
    ]

    @Test func subscripts() {
        #expect(document["name"] == "todo")
        #expect(document["missing"] == nil)
        #expect(document["none"] == .null)
        #expect(document["tags"]?[1] == "b")
        #expect(document["tags"]?[2] == nil)
        #expect(document["tags"]?[-1] == nil)
        #expect(document[0] == nil)
        #expect(JSONValue.string("x")["x"] == nil)
        #expect(document["meta"]?["x"] == 1)
    }

    @Test func typedGetters() throws {
        #expect(document["name"]?.stringValue == "todo")
        #expect(document["count"]?.stringValue == nil)
        #expect(document["done"]?.boolValue == false)
        #expect(document["count"]?.intValue == 3)
        #expect(document["count"]?.int64Value == 3)
        #expect(document["count"]?.doubleValue == 3.0)
        #expect(document["ratio"]?.intValue == nil)
        #expect(document["ratio"]?.int64Value == nil)
        #expect(document["ratio"]?.doubleValue == 0.5)
        #expect(document["name"]?.doubleValue == nil)
        #expect(document["tags"]?.arrayValue == ["a", "b"])
        #expect(document["meta"]?.objectValue == ["x": 1])
        #expect(document["tags"]?.objectValue == nil)
        #expect(document["none"]?.isNull == true)
        #expect(document["done"]?.isNull == false)
        #expect(try JSONParser.parse("2.0").intValue == 2)
        #expect(try JSONParser.parse("1e30").intValue == nil)
        #expect(try JSONParser.parse("123456789012345678901234567890").int64Value == nil)
    }

    @Test func typeNames() {
        let names = [JSONValue.null, true, 1, "s", [], [:]].map(\.typeName)
        #expect(names == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test func literals() {
        let null: JSONValue = nil
        let flag: JSONValue = true
        let integer: JSONValue = 7
        let real: JSONValue = 2.5
        let integralReal: JSONValue = 2.0
        let text: JSONValue = "hi"
        let list: JSONValue = [1, "x"]
        let object: JSONValue = ["k": 1]
        #expect(null == .null)
        #expect(flag == .bool(true))
        #expect(integer == .number(JSONNumber(7)))
        #expect(real == .number(JSONNumber(2.5)))
        #expect(integralReal == 2)
        #expect(integralReal.int64Value == 2)
        #expect(text == .string("hi"))
        #expect(list == .array([.number(JSONNumber(1)), .string("x")]))
        #expect(object == .object(["k": .number(JSONNumber(1))]))
    }

    @Test func dictionaryLiteralLastDuplicateWins() {
        let value: JSONValue = ["a": 1, "b": 2, "a": 3]
        #expect(value == ["a": 3, "b": 2])
        #expect(value.encodedString == #"{"a":3,"b":2}"#)
    }

    @Test func objectsAreUnorderedForEqualityAndHashing() throws {
        let first = try JSONParser.parse(#"{"a":1,"b":[1,2]}"#)
        let second = try JSONParser.parse(#"{"b":[1,2],"a":1}"#)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(try JSONParser.parse("[1,2]") != JSONParser.parse("[2,1]"))
    }
}

@Suite("Echoed text")
struct EchoedTextTests {
    @Test func shortTextIsKept() {
        let text = String(repeating: "a", count: EchoedText.limit)
        #expect(EchoedText.shortened(text) == text)
    }

    @Test func longTextIsCutAtAScalarBoundaryWithTheMarker() {
        #expect(EchoedText.shortened(String(repeating: "a", count: 300)) == String(repeating: "a", count: 256) + "…")
        // "é" is 2 bytes and "😀" 4: a cut inside either drops the whole scalar.
        let accented = "a" + String(repeating: "é", count: 200)
        #expect(EchoedText.shortened(accented) == "a" + String(repeating: "é", count: 127) + "…")
        let emoji = "ab" + String(repeating: "😀", count: 100)
        #expect(EchoedText.shortened(emoji) == "ab" + String(repeating: "😀", count: 63) + "…")
    }
}
