// Tests of QueryKey's canonical bytes: equal JSON values give equal bytes (numbers by value,
// object members in any order, strings up to Unicode canonical equivalence), and a query can be
// looked up by those bytes.

import QuerydCore
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite struct QueryKeyIdentityTests {
    /// Keys written differently that are the same key, with their canonical text.
    static let equalKeys: [([String], String)] = [
        ([#"["a",1]"#, #"["a",1.0]"#, #"["a",1e0]"#, #"[ "a" , 1 ]"#, #"["\u0061",10e-1]"#], #"["a",1]"#),
        ([#"[{"b":1,"a":2}]"#, #"[{"a":2,"b":1}]"#, #"[{ "a" : 2.0, "b" : 1 }]"#], #"[{"a":2,"b":1}]"#),
        ([#"[1e20]"#, #"[100000000000000000000]"#], "[100000000000000000000]"),
        ([#"[-0]"#, "[0]", "[0.0]", "[-0.0]"], "[0]"),
        ([#"[0.5]"#, #"[5e-1]"#], "[0.5]"),
        (["[\"\u{E9}\"]", "[\"e\u{301}\"]", #"["\u00e9"]"#], "[\"\u{E9}\"]"),
        (["[{\"\u{E9}\":1}]", "[{\"e\u{301}\":1}]"], "[{\"\u{E9}\":1}]"),
        ([#"["x\"y\u2028"]"#], #"["x\"y\u2028"]"#),
    ]

    @Test(arguments: equalKeys)
    func equalValuesHaveEqualIdentity(texts: [String], canonical: String) throws {
        let keys = try texts.map { try QueryKey(json($0)) }
        for key in keys {
            #expect(key == keys[0])
            #expect(key.hashValue == keys[0].hashValue)
        }
        #expect(Set(keys).count == 1)
        // The lookup by canonical bytes finds the query stored under any of the spellings.
        let harness = EngineHarness()
        _ = try harness.cache.set(key: keys.last!, .data(1), updatedAt: nil)
        let found = harness.cache.query(canonicalKeyBytes: Array(canonical.utf8))
        #expect(found != nil, "no query for \(canonical)")
        #expect(found === harness.cache.query(keys[0]))
    }

    /// A key keeps only its canonical bytes: what it gives back is its canonical spelling, equal to
    /// the value it was made from, and making a key of that gives the same bytes again.
    @Test(arguments: equalKeys)
    func elementsComeBackInCanonicalSpelling(texts: [String], canonical: String) throws {
        for text in texts {
            let value = json(text)
            let key = try QueryKey(value)
            #expect(key.description == canonical)
            #expect(key.jsonValue == value)
            let again = try QueryKey(key.jsonValue)
            #expect(again.description == canonical)
            #expect(QueryKey(elements: key.elements) == key)
            var written: [UInt8] = []
            key.write(to: &written)
            #expect(written == Array(canonical.utf8))
        }
    }

    @Test func differentValuesHaveDifferentIdentity() throws {
        let texts = [
            #"["a",1]"#, #"["a","1"]"#, #"["a",1.5]"#, #"[1,"a"]"#, #"["a",[1]]"#, #"["a",{"1":1}]"#, #"["a",true]"#,
            #"["a",null]"#, #"[100000000000000000001]"#, #"[100000000000000000000]"#, #"[{"a":1,"b":2}]"#,
            #"[{"a":1}]"#, "[\"\u{E9}\"]", #"["e"]"#,
        ]
        let keys = try texts.map { try QueryKey(json($0)) }
        #expect(Set(keys).count == texts.count)
    }

    @Test func lookupByBytesMissesOtherKeys() throws {
        let harness = EngineHarness()
        _ = try harness.cache.set(key: QueryKey(json(#"["a",1]"#)), .data(1), updatedAt: nil)
        #expect(harness.cache.query(canonicalKeyBytes: Array(#"["a",1]"#.utf8)) != nil)
        #expect(harness.cache.query(canonicalKeyBytes: Array(#"["a",1.0]"#.utf8)) == nil)
        #expect(harness.cache.query(canonicalKeyBytes: Array(#"["a","1"]"#.utf8)) == nil)
        #expect(harness.cache.query(canonicalKeyBytes: Array(#"["a"]"#.utf8)) == nil)
    }
}
