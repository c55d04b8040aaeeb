// JSON Merge Patch (RFC 7396): every Appendix A example, plus a few edge cases.

import QuerydJSON
import Testing

@Suite("JSON Merge Patch")
struct MergePatchTests {
    /// (original, patch, result) from RFC 7396 Appendix A.
    static let appendixA: [(String, String, String)] = [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, #"null"#, #"null"#),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ]

    @Test("RFC 7396 Appendix A", arguments: 0..<appendixA.count)
    func appendixAExample(index: Int) throws {
        let (original, patch, result) = Self.appendixA[index]
        let merged = try JSONParser.parse(original).applyingMergePatch(JSONParser.parse(patch))
        #expect(merged == (try JSONParser.parse(result)))
    }

    @Test func rfcSection3Example() throws {
        let target = try JSONParser.parse(
            #"{"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},"tags":["example","sample"],"content":"This will be unchanged"}"#
        )
        let patch = try JSONParser.parse(
            #"{"title":"Hello!","phoneNumber":"+01-123-456-7890","author":{"familyName":null},"tags":["example"]}"#)
        let expected = try JSONParser.parse(
            #"{"title":"Hello!","author":{"givenName":"John"},"tags":["example"],"content":"This will be unchanged","phoneNumber":"+01-123-456-7890"}"#
        )
        #expect(target.applyingMergePatch(patch) == expected)
    }

    @Test func patchingAScalarWithAnObjectStartsFromEmpty() {
        #expect(JSONValue(5).applyingMergePatch(["a": nil, "b": ["c": nil]]) == ["b": [:]])
        #expect(JSONValue.null.applyingMergePatch(["a": 1]) == ["a": 1])
    }

    @Test func emptyPatchLeavesObjectsUnchanged() {
        let target: JSONValue = ["a": [1, 2], "b": ["c": true]]
        #expect(target.applyingMergePatch([:]) == target)
        #expect(JSONValue(3).applyingMergePatch([:]) == [:])
    }
}
