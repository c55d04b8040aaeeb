// Tests of finding a key's elements in its canonical bytes (`QueryKey.elementEnd`), which the
// index's trie and the write options cache split keys by: every kind of element, strings with
// escapes and with the bytes that end other elements.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct QueryKeyElementsTests {
    /// The canonical bytes of each element of `key`, found by `elementEnd`.
    private func split(_ key: QueryKey) -> [String] {
        key.withCanonicalBytes { bytes in
            var parts: [String] = []
            var start = 1
            while true {
                let end = QueryKey.elementEnd(in: bytes, from: start)
                parts.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                if bytes[end] == UInt8(ascii: "]") {
                    #expect(end == bytes.count - 1)
                    return parts
                }
                #expect(bytes[end] == UInt8(ascii: ","))
                start = end + 1
            }
        }
    }

    @Test(arguments: [
        #"["m",123]"#, #"[-1.5e3,0,true,false,null]"#, #"["a\"b,]","\\",""]"#, #"["é",{"b":[1,"]"],"a":"}"}]"#,
        #"[[],{},[[1,2],["x,y"]],"\\\""]"#, #"[{"k":"\\"},7]"#,
    ])
    func eachElementEndsWhereItsOwnEncodingDoes(text: String) throws {
        let key = try QueryKey(JSONParser.parse(Array(text.utf8)))
        let expected = key.elements.map { QueryKey(elements: [$0]).description.dropFirst().dropLast() }.map(String.init)
        #expect(split(key) == expected)
    }
}
