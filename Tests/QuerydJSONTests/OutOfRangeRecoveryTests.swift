// A number beyond a double's range is read as null on request, with its path, so a message can be
// answered by its own id.

import QuerydJSON
import Testing

@Suite("Out-of-range numbers")
struct OutOfRangeRecoveryTests {
    static func recover(_ text: String) -> (value: JSONValue, path: [String])? {
        let bytes = Array(text.utf8)
        guard let error = parseError(bytes) else { return nil }
        return bytes.withUnsafeBytes {
            JSONParser.parseReplacingOutOfRangeNumbers($0, refusedWith: error, maxDepth: 64)
        }
    }

    @Test func theNumberBecomesNullAndItsPathIsGiven() {
        let recovered = Self.recover(#"{"id":7,"params":{"a b":[1,{"x":"}\"[",  "y":1e400}]}}"#)
        #expect(recovered?.path == ["params", "a b", "1", "y"])
        #expect(recovered?.value == parsed(#"{"id":7,"params":{"a b":[1,{"x":"}\"[","y":null}]}}"#))
    }

    @Test func everyOutOfRangeNumberIsReplacedUpToTheLimit() {
        let recovered = Self.recover(#"[1e400,-2e999,3,1000000000000000000000000000000000000000e300]"#)
        #expect(recovered?.path == ["0"])
        #expect(recovered?.value == [nil, nil, 3, nil])
        let many = "[" + Array(repeating: "1e400", count: 9).joined(separator: ",") + "]"
        #expect(Self.recover(many) == nil)
    }

    @Test func otherErrorsAreNotRecovered() {
        #expect(Self.recover(#"{"a":1e400,}"#) == nil)
        #expect(Self.recover(#"{"a":tru}"#) == nil)
    }
}
