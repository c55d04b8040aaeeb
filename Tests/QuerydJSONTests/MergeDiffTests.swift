// The merge patch between two values (JSONValue.mergePatch(to:)): applying it gives the target
// exactly, it leaves unchanged members out, and it is nil where a merge patch cannot say it.

import QuerydJSON
import Testing

@Suite("JSON Merge Patch: diff")
struct MergeDiffTests {
    private func value(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test(
        "the patch between each Appendix A original and result gives the result",
        arguments: 0..<MergePatchTests.appendixA.count)
    func roundTrip(index: Int) throws {
        let (original, _, result) = MergePatchTests.appendixA[index]
        let from = try value(original)
        let to = try value(result)
        let patch = try #require(from.mergePatch(to: to))
        #expect(from.applyingMergePatch(patch) == to)
    }

    @Test func onlyChangedMembersAreInThePatch() throws {
        let from = try value(#"{"a":{"b":1,"c":[1,2]},"d":"x","e":true}"#)
        let patch = from.mergePatch(to: try value(#"{"a":{"b":2,"c":[1,2]},"d":"x"}"#))
        #expect(patch == (try value(#"{"a":{"b":2},"e":null}"#)))
        #expect(from.mergePatch(to: from) == .object([:]))
    }

    @Test func aNullMemberCannotBeWrittenByAMergePatch() throws {
        #expect(try value(#"{"a":1}"#).mergePatch(to: try value(#"{"a":null}"#)) == nil)
        #expect(try value(#"{"a":1}"#).mergePatch(to: try value(#"{"a":1,"b":{"c":null}}"#)) == nil)
        #expect(try value(#"[1]"#).mergePatch(to: try value(#"{"a":null}"#)) == nil)
        // Inside an array a null is just a value: the array is written whole.
        let patch = try #require(try value(#"{"a":[]}"#).mergePatch(to: try value(#"{"a":[{"b":null}]}"#)))
        #expect(patch == (try value(#"{"a":[{"b":null}]}"#)))
    }
}
