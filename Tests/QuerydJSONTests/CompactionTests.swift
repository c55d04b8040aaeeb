// Tests of JSONValue.compacted(): the value stays equal and its containers lose their spare room.

import QuerydJSON
import Testing

@Suite struct CompactionTests {
    @Test func aCompactedValueIsEqualAndEncodesTheSame() throws {
        let value = try JSONParser.parse(#"{"i":7,"pad":"xxxx","list":[1,{"a":null}],"empty":{},"none":[]}"#)
        let compact = value.compacted()
        #expect(compact == value)
        #expect(compact.encoded == value.encoded)
    }

    @Test func parsedContainersShrinkToTheirSize() throws {
        let value = try JSONParser.parse(#"{"i":7,"list":[1]}"#)
        guard case .object(let before) = value, case .object(let after) = value.compacted() else {
            Issue.record("not an object")
            return
        }
        #expect(after.capacity < before.capacity)
        guard case .array(let beforeItems) = before["list"], case .array(let afterItems) = after["list"] else {
            Issue.record("not an array")
            return
        }
        #expect(afterItems.capacity < beforeItems.capacity)
    }

    @Test func scalarsAreUnchanged() {
        let values: [JSONValue] = [.null, true, 1.5, "text", .number(JSONNumber(42))]
        for value in values { #expect(value.compacted() == value) }
    }
}
