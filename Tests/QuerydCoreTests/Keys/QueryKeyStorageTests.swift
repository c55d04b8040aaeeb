// Tests of QueryKey's storage: keys of at most 23 canonical bytes are held inline and longer ones
// in an array, and either way identity, hashing, ordering and the bytes read back are those of the
// canonical bytes alone.

import QuerydJSON
import QuerydTestSupport
import Testing

@testable import QuerydCore

/// True when the key holds its bytes inline (no heap allocation).
private func isInline(_ key: QueryKey) -> Bool {
    if case .inline = key.storage { return true }
    return false
}

/// A one-string key whose canonical text is exactly `count` bytes (`count` >= 4).
private func stringKey(bytes count: Int, fill: Character = "a") throws -> QueryKey {
    try QueryKey(json("[\"" + String(repeating: fill, count: count - 4) + "\"]"))
}

/// The hash `hash(into:)` must give: the canonical bytes fed to `combine(bytes:)`, nothing else.
private func expectedHash(_ bytes: [UInt8]) -> Int {
    var hasher = Hasher()
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    return hasher.finalize()
}

/// The bytes a key reports through `withCanonicalBytes`.
private func bytes(of key: QueryKey) -> [UInt8] {
    key.withCanonicalBytes { Array($0) }
}

@Suite struct QueryKeyStorageTests {
    @Test func layoutIsSmallAndTheInlineLimitIs23Bytes() throws {
        #expect(MemoryLayout<QueryKey>.size <= 25)
        let at23 = try stringKey(bytes: 23)
        let at24 = try stringKey(bytes: 24)
        #expect(at23.canonicalByteCount == 23)
        #expect(at24.canonicalByteCount == 24)
        #expect(isInline(at23))
        #expect(!isInline(at24))
        #expect(isInline(try QueryKey(json(#"["m",123456]"#))))
    }

    @Test func storageKindFollowsTheByteCountWhateverTheInitializer() throws {
        for count in 4...40 {
            let key = try stringKey(bytes: count)
            let canonical = Array(key.description.utf8)
            let copies = [
                QueryKey(elements: key.elements),
                QueryKey(lookingUp: canonical),
                canonical.withUnsafeBytes { QueryKey(canonicalBytes: $0) },
                key.compacted,
            ]
            for copy in copies {
                #expect(isInline(copy) == (count <= 23), "count \(count)")
                #expect(copy == key, "count \(count)")
            }
        }
    }

    @Test func identityAndHashingAcrossTheBoundary() throws {
        let keys = try (4...40).map { try stringKey(bytes: $0) }
        #expect(Set(keys).count == keys.count)
        for key in keys {
            let canonical = Array(key.description.utf8)
            let again = QueryKey(lookingUp: canonical)
            #expect(key == again)
            #expect(key.hashValue == again.hashValue)
            #expect(key.hashValue == expectedHash(canonical), "\(key)")
            for other in keys where other.canonicalByteCount != key.canonicalByteCount {
                #expect(key != other)
            }
        }
        // Same length, one byte apart, in each of the three words and in the heap.
        for count in [4, 8, 9, 16, 17, 23, 24, 40] {
            let base = Array(try stringKey(bytes: count).description.utf8)
            for index in 2..<(count - 2) {
                var changed = base
                changed[index] = UInt8(ascii: "b")
                let a = QueryKey(lookingUp: base)
                let b = QueryKey(lookingUp: changed)
                #expect(a != b, "count \(count) index \(index)")
                #expect(b.hashValue == expectedHash(changed))
            }
        }
    }

    /// Keys made from elements in place (short keys of null, booleans, integers and plain ASCII
    /// strings) have the bytes the array writer gives, and every other key falls back to it.
    @Test func keysFromElementsHaveTheArrayWritersBytes() throws {
        var cases: [[JSONValue]] = [
            ["todos", 5, 12345], [nil, true, false, "x"], ["a", .number(JSONNumber(Int64.min))],
            [.number(JSONNumber(Int64.max))], [1.5], [.number(JSONNumber(1e20))], ["é"], ["e\u{301}"],
            ["\u{2028}"], [["b": 1, "a": 2]], [[1, 2]], ["", ""], [-1, 0, 10, 99, 100],
            ["m", .number(JSONNumber(1_234_567_890_123_456_789))], [nil, nil, nil, nil, nil, nil],
        ]
        for byte in UInt8(0)..<0x80 { cases.append([.string("a" + String(UnicodeScalar(byte)) + "b"), 1]) }
        for length in 0...30 {
            cases.append([.string(String(repeating: "k", count: length))])
            cases.append([.string(String(repeating: "k", count: length)), 7, true])
            cases.append([.number(JSONNumber(Int64.min)), .string(String(repeating: "k", count: length))])
        }
        for elements in cases {
            let key = QueryKey(elements: elements)
            #expect(bytes(of: key) == QueryKey.canonicalBytes(elements), "\(elements)")
            #expect(isInline(key) == (key.canonicalByteCount <= 23), "\(elements)")
        }
    }

    /// Equal JSON spelt differently gives one key, inline or not.
    @Test(arguments: [
        ([#"[{"b":1,"a":2}]"#, #"[{"a":2,"b":1}]"#, #"[{"a":2.0,"b":1e0}]"#], #"[{"a":2,"b":1}]"#),
        ([#"["m",1]"#, #"["m",1.0]"#, #"[ "m" , 10e-1 ]"#], #"["m",1]"#),
        (
            [#"["long-enough-to-spill",{"y":1,"x":2}]"#, #"["long-enough-to-spill",{"x":2.0,"y":1.00}]"#],
            #"["long-enough-to-spill",{"x":2,"y":1}]"#
        ),
        ([#"["twenty-four-bytes!!",1]"#, #"["twenty-four-bytes!!",1.0]"#], #"["twenty-four-bytes!!",1]"#),
    ])
    func equalJSONInDifferentSpellingsIsOneKey(texts: [String], canonical: String) throws {
        let keys = try texts.map { try QueryKey(json($0)) }
        for key in keys {
            #expect(key == keys[0])
            #expect(key.hashValue == keys[0].hashValue)
            #expect(bytes(of: key) == Array(canonical.utf8))
            #expect(isInline(key) == (canonical.utf8.count <= 23))
        }
        #expect(Set(keys).count == 1)
    }

    @Test func orderIsTheUnsignedByteOrder() throws {
        // Canonical keys around the boundary, with prefixes of each other and bytes above 0x7F.
        var samples: [[UInt8]] = []
        for count in [4, 5, 7, 8, 9, 15, 16, 17, 22, 23, 24, 25, 31, 40] {
            for fill: Character in ["a", "b", "\u{E9}"] {
                samples.append(Array(try stringKey(bytes: count, fill: fill).description.utf8))
            }
        }
        samples.append(Array(#"["m",123456]"#.utf8))
        samples.append(Array(#"["m",12345]"#.utf8))
        samples.append(Array(#"["m",123456,1]"#.utf8))
        // Raw bytes: zero bytes (which the inline padding must not confuse with the end) and 0xFF.
        for count in [0, 1, 2, 7, 8, 15, 16, 22, 23, 24, 30] {
            samples.append([UInt8](repeating: 0, count: count))
            samples.append([UInt8](repeating: 0xFF, count: count))
            samples.append([0x41] + [UInt8](repeating: 0, count: count))
        }
        let keys = samples.map { sample in sample.withUnsafeBytes { QueryKey(canonicalBytes: $0) } }
        for (i, a) in keys.enumerated() {
            for (j, b) in keys.enumerated() {
                let expected = samples[i].lexicographicallyPrecedes(samples[j])
                #expect((a < b) == expected, "\(samples[i]) < \(samples[j])")
                #expect((a == b) == (samples[i] == samples[j]), "\(samples[i]) == \(samples[j])")
            }
        }
        #expect(keys.sorted().map(bytes(of:)) == samples.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func elementsRoundTripOnBothSidesOfTheBoundary() throws {
        let texts = [
            #"["m",123456]"#, #"[{"a":[1,null,true]}]"#, #"["12345678901234567890"]"#,
            #"["123456789012345678901"]"#, #"["todos",{"done":false,"page":2},[1,2.5,"\u00e9"]]"#,
        ]
        for text in texts {
            let value = json(text)
            let key = try QueryKey(value)
            #expect(key.jsonValue == value)
            #expect(QueryKey(elements: key.elements) == key)
            #expect(try QueryKey(key.jsonValue) == key)
        }
    }

    @Test func withCanonicalBytesWriteAndDescriptionAgree() throws {
        for count in [4, 12, 23, 24, 60] {
            let key = try stringKey(bytes: count)
            let expected = Array(("[\"" + String(repeating: "a", count: count - 4) + "\"]").utf8)
            #expect(bytes(of: key) == expected)
            #expect(key.canonicalByteCount == expected.count)
            #expect(key.withCanonicalBytes { Array($0) } == expected)
            #expect(key.description == String(decoding: expected, as: UTF8.self))
            var out = Array("x".utf8)
            key.write(to: &out)
            #expect(out == Array("x".utf8) + expected)
        }
    }

    @Test func initFromCanonicalBytesCopiesThem() throws {
        for text in [#"["m",123456]"#, #"["a somewhat longer key",{"x":1}]"#] {
            var buffer = Array(text.utf8)
            let key = buffer.withUnsafeBytes { QueryKey(canonicalBytes: $0) }
            #expect(key == (try QueryKey(json(text))))
            #expect(key.elements == (try jsonArray(text)))
            buffer[1] = UInt8(ascii: "X")
            #expect(key.description == text)
        }
    }

    @Test func compactedDropsSpareCapacityOfHeapKeysOnly() throws {
        var long = Array(#"["a somewhat longer key",1]"#.utf8)
        long.reserveCapacity(200)
        let key = QueryKey(lookingUp: long)
        guard case .heap(let before) = key.storage else {
            Issue.record("a 26-byte key is not on the heap")
            return
        }
        #expect(before.capacity >= 200)
        let compacted = key.compacted
        guard case .heap(let after) = compacted.storage else {
            Issue.record("the compacted key is not on the heap")
            return
        }
        #expect(after.capacity < 200)
        #expect(compacted == key)
        let short = try QueryKey(json(#"["m",1]"#))
        #expect(short.compacted == short)
        #expect(isInline(short.compacted))
    }
}
