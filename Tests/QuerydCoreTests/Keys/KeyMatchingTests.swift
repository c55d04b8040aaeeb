// Tests of KeyMatching.partialMatch and matches(_:prefix:) against TanStack's partialMatchKey rules.

import QuerydCore
import QuerydJSON
import QuerydTestSupport
import Testing

/// One partial-match case: a query key (or any value), a filter, and whether it matches.
struct PartialMatchCase: Sendable, CustomTestStringConvertible {
    let value: String
    let filter: String
    let matches: Bool

    init(_ value: String, _ filter: String, _ matches: Bool) {
        self.value = value
        self.filter = filter
        self.matches = matches
    }

    var testDescription: String { "\(value) ~ \(filter) -> \(matches)" }
}

let partialMatchCases: [PartialMatchCase] = [
    // Equal values, scalars.
    .init("1", "1", true),
    .init(#""a""#, #""a""#, true),
    .init("true", "true", true),
    .init("true", "false", false),
    .init("null", "null", true),
    .init(#""a""#, #""b""#, false),
    // Numbers compare by value.
    .init("1", "1.0", true),
    .init("1.5", "1.5", true),
    .init("1", "2", false),
    .init("[1]", "[1e0]", true),
    // Different types never match; null matches only null.
    .init("1", #""1""#, false),
    .init("null", "0", false),
    .init("0", "null", false),
    .init("null", "false", false),
    .init(#""""#, "null", false),
    .init("[]", "{}", false),
    .init("{}", "[]", false),
    .init(#"{"a":1}"#, "[1]", false),
    .init("[1]", "1", false),
    // Arrays are prefixes.
    .init(#"["todos",1]"#, #"["todos"]"#, true),
    .init(#"["todos"]"#, #"["todos",1]"#, false),
    .init(#"["todos",1]"#, "[]", true),
    .init(#"["todos",1]"#, #"["todos",2]"#, false),
    .init(#"["a","b"]"#, #"["b"]"#, false),
    .init(#"["a","b"]"#, #"["a","b"]"#, true),
    // Nested arrays are prefixes too.
    .init(#"["a",[1,2,3]]"#, #"["a",[1,2]]"#, true),
    .init(#"["a",[1,2,3]]"#, #"["a",[]]"#, true),
    .init(#"["a",[1,2]]"#, #"["a",[1,2,3]]"#, false),
    .init(#"["a",[1,2]]"#, #"["a",[2]]"#, false),
    .init(#"[{"d":[{"x":1}]}]"#, #"[{"d":[]}]"#, true),
    // Objects match on the filter's members only.
    .init(#"[{"a":"a","b":"b"}]"#, #"[{"a":"a"}]"#, true),
    .init(#"[{"a":"a"}]"#, #"[{"a":"a","b":"b"}]"#, false),
    .init(#"[{"a":"a"}]"#, #"[{"a":"b"}]"#, false),
    .init(#"[{"a":1}]"#, "[{}]", true),
    .init(#"[{"a":null}]"#, #"[{"a":null}]"#, true),
    .init("[{}]", #"[{"a":null}]"#, false),
    .init(#"[{"a":{"b":1,"c":2}}]"#, #"[{"a":{"c":2}}]"#, true),
    .init(#"[{"a":{"b":1}}]"#, #"[{"a":{"b":"1"}}]"#, false),
    .init(#"[{"a":[1,2]}]"#, #"[{"a":[1]}]"#, true),
    .init(#"[{"a":[1,2]}]"#, #"[{"a":{"0":1}}]"#, false),
    .init(#"["todos",{"page":1,"sort":"asc"}]"#, #"["todos",{"page":1.0}]"#, true),
]

@Suite struct KeyMatchingTests {
    @Test(arguments: partialMatchCases)
    func partialMatch(_ testCase: PartialMatchCase) throws {
        let value = json(testCase.value)
        let filter = json(testCase.filter)
        #expect(KeyMatching.partialMatch(value, filter: filter) == testCase.matches)
    }

    @Test func tableIsLargeEnough() {
        #expect(partialMatchCases.count >= 25)
    }

    @Test func keyPrefixMatching() throws {
        let key = try QueryKey(json(#"["todos",{"page":1,"done":false},[1,2]]"#))
        #expect(KeyMatching.matches(key, prefix: []))
        #expect(KeyMatching.matches(key, prefix: try jsonArray(#"["todos"]"#)))
        #expect(KeyMatching.matches(key, prefix: try jsonArray(#"["todos",{"done":false}]"#)))
        #expect(KeyMatching.matches(key, prefix: try jsonArray(#"["todos",{},[1]]"#)))
        #expect(!KeyMatching.matches(key, prefix: try jsonArray(#"["todos",{"done":true}]"#)))
        #expect(!KeyMatching.matches(key, prefix: try jsonArray(#"["todos",{},[2]]"#)))
        #expect(!KeyMatching.matches(key, prefix: try jsonArray(#"["todos",{},[1,2],null]"#)))
        #expect(!KeyMatching.matches(key, prefix: try jsonArray(#"["users"]"#)))
    }
}
