// Tests of QueryKey: canonical identity, hashing, description and validation.

import QuerydCore
import QuerydJSON
import QuerydTestSupport
import Testing

/// A test failure for malformed test input.
struct TestInputError: Error {
    let text: String
}

/// Parses JSON text that must be an array and returns its elements.
func jsonArray(_ text: String) throws -> [JSONValue] {
    guard case .array(let elements) = json(text) else { throw TestInputError(text: text) }
    return elements
}

@Suite struct QueryKeyTests {
    @Test func objectMemberOrderDoesNotChangeIdentity() throws {
        let a = try QueryKey(json(#"["a",{"x":1,"y":2}]"#))
        let b = try QueryKey(json(#"["a",{"y":2,"x":1}]"#))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.description == b.description)
        #expect(a.description == #"["a",{"x":1,"y":2}]"#)
        #expect(Set([a, b]).count == 1)
    }

    @Test func nestedObjectsAreCanonicalAtEveryDepth() throws {
        let a = try QueryKey(json(#"[{"b":{"d":[1,{"f":1,"e":2}],"c":0},"a":null}]"#))
        let b = try QueryKey(json(#"[{"a":null,"b":{"c":0,"d":[1,{"e":2,"f":1}]}}]"#))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.description == #"[{"a":null,"b":{"c":0,"d":[1,{"e":2,"f":1}]}}]"#)
    }

    @Test func numberAndStringDiffer() throws {
        let number = try QueryKey(json("[1]"))
        let string = try QueryKey(json(#"["1"]"#))
        #expect(number != string)
        #expect(number.description == "[1]")
        #expect(string.description == #"["1"]"#)
    }

    @Test func arrayOrderMatters() throws {
        let ab = try QueryKey(json(#"["a","b"]"#))
        let ba = try QueryKey(json(#"["b","a"]"#))
        #expect(ab != ba)
        #expect(ab.description != ba.description)
    }

    @Test func integralDoubleEqualsInteger() throws {
        let a = try QueryKey(json(#"["page",1]"#))
        let b = try QueryKey(json(#"["page",1.0]"#))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.description == b.description)
    }

    @Test(arguments: [#""todos""#, "1", "null", "true", #"{"a":1}"#, "[]"])
    func nonArraysAndEmptyArrayAreRejected(text: String) throws {
        let value = json(text)
        #expect(throws: QueryKeyError(message: "query key must be a non-empty JSON array")) {
            try QueryKey(value)
        }
    }

    @Test func elementsAndJSONValueRoundTrip() throws {
        let value = json(#"["todos",{"done":false},[1,2]]"#)
        let key = try QueryKey(value)
        #expect(key.elements.count == 3)
        #expect(key.elements[0] == .string("todos"))
        #expect(key.jsonValue == value)
        #expect(QueryKey(elements: key.elements) == key)
    }
}
