// Nesting depth: the limit is exact and hostile nesting fails fast without exhausting the stack.

import QuerydJSON
import Testing

@Suite("Parser nesting depth")
struct ParserDepthTests {
    static func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static func nestedObjects(_ depth: Int) -> String {
        String(repeating: "{\"a\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
    }

    @Test func hundredThousandOpeningBracketsFailFast() {
        let input = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(parseError(input) == JSONParseError(offset: 512, message: "nesting deeper than 512 levels"))
        #expect(parseError(input, maxDepth: 64) == JSONParseError(offset: 64, message: "nesting deeper than 64 levels"))
    }

    @Test func hundredThousandOpeningBracesFailFast() {
        let input = String(repeating: "{\"a\":", count: 100_000)
        #expect(
            parseError(input, maxDepth: 64) == JSONParseError(offset: 320, message: "nesting deeper than 64 levels"))
    }

    @Test func scalarsHaveDepthZero() {
        #expect(parsed("1") == 1)
        #expect(parseResult("1", maxDepth: 0) == .success(1))
        #expect(parseError("[]", maxDepth: 0) == JSONParseError(offset: 0, message: "nesting deeper than 0 levels"))
    }

    @Test(arguments: [1, 2, 64, 512])
    func arrayDepthBoundaryIsExact(maxDepth: Int) {
        #expect(parseError(Self.nestedArrays(maxDepth), maxDepth: maxDepth) == nil)
        let error = parseError(Self.nestedArrays(maxDepth + 1), maxDepth: maxDepth)
        #expect(error == JSONParseError(offset: maxDepth, message: "nesting deeper than \(maxDepth) levels"))
    }

    @Test(arguments: [1, 2, 64])
    func objectDepthBoundaryIsExact(maxDepth: Int) {
        #expect(parseError(Self.nestedObjects(maxDepth), maxDepth: maxDepth) == nil)
        let error = parseError(Self.nestedObjects(maxDepth + 1), maxDepth: maxDepth)
        #expect(error?.message == "nesting deeper than \(maxDepth) levels")
        #expect(error?.offset == maxDepth * 5)
    }

    @Test func mixedNestingCountsBothKinds() {
        // [ { "a": [ ] } ] has depth 3.
        #expect(parseError(#"[{"a":[]}]"#, maxDepth: 3) == nil)
        #expect(
            parseError(#"[{"a":[]}]"#, maxDepth: 2)
                == JSONParseError(offset: 6, message: "nesting deeper than 2 levels"))
    }

    @Test func siblingsDoNotAccumulateDepth() {
        let wide = "[" + Array(repeating: "[[]]", count: 1000).joined(separator: ",") + "]"
        #expect(parseError(wide, maxDepth: 3) == nil)
    }
}
