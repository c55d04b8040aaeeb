// Tests of KeyIndex: exact behaviour of insert/remove/prune and agreement with a brute-force scan.

import QuerydJSON
import Testing

@testable import QuerydCore

func bruteForce(_ pairs: [(key: QueryKey, id: Int)], _ prefix: [JSONValue]) -> [Int] {
    pairs.filter { KeyMatching.matches($0.key, prefix: prefix) }.map(\.id).sorted()
}

@Suite struct KeyIndexTests {
    @Test func agreesWithBruteForceOnRandomKeysAndFilters() {
        var generator = KeyGenerator(rng: SeededGenerator(seed: 20_240_601))
        var index = KeyIndex<Int>()
        var pairs: [(key: QueryKey, id: Int)] = []
        for id in 0..<5000 {
            let key = generator.key()
            pairs.append((key, id))
            index.insert(key, id)
        }
        #expect(index.count == 5000)
        var nonTrivial = 0
        var structured = 0
        for round in 0..<300 {
            let prefix = round == 0 ? [] : generator.filter(near: pairs.map(\.key))
            let expected = bruteForce(pairs, prefix)
            #expect(index.matches(prefix: prefix).sorted() == expected, "filter \(JSONValue.array(prefix))")
            if expected.count > 1, expected.count < 5000 { nonTrivial += 1 }
            if prefix.contains(where: isStructured) { structured += 1 }
        }
        // The generator must really exercise the interesting cases.
        #expect(nonTrivial > 100)
        #expect(structured > 30)

        // Remove a random half and check again.
        var remaining: [(key: QueryKey, id: Int)] = []
        for pair in pairs {
            if Bool.random(using: &generator.rng) {
                index.remove(pair.key, pair.id)
            } else {
                remaining.append(pair)
            }
        }
        #expect(index.count == remaining.count)
        for _ in 0..<100 {
            let prefix = generator.filter(near: pairs.map(\.key))
            #expect(index.matches(prefix: prefix).sorted() == bruteForce(remaining, prefix))
        }
        for pair in remaining { index.remove(pair.key, pair.id) }
        #expect(index.count == 0)
        #expect(index.shape == (0, 0))
        #expect(index.matches(prefix: []).isEmpty)
    }

    @Test func insertRemoveAndPrune() throws {
        var index = KeyIndex<String>()
        let abc = try QueryKey(json(#"["a","b","c"]"#))
        let a = try QueryKey(json(#"["a"]"#))
        index.insert(abc, "abc")
        #expect(index.shape == (2, 1))
        index.insert(a, "a")
        #expect(index.shape == (2, 1))
        #expect(index.matches(prefix: try jsonArray(#"["a"]"#)).sorted() == ["a", "abc"])
        #expect(index.matches(prefix: try jsonArray(#"["a","b"]"#)) == ["abc"])
        #expect(index.matches(prefix: try jsonArray(#"["a","b","c","d"]"#)).isEmpty)

        index.remove(abc, "abc")
        // "b" was pruned and "a" went back to being a bare leaf.
        #expect(index.shape == (0, 1))
        #expect(index.matches(prefix: []) == ["a"])
        index.remove(a, "a")
        #expect(index.shape == (0, 0))
        #expect(index.count == 0)

        // The other order: a bare leaf becomes a node when a longer key continues through it.
        index.insert(a, "a")
        #expect(index.shape == (0, 1))
        index.insert(abc, "abc")
        #expect(index.shape == (2, 1))
        #expect(index.matches(prefix: try jsonArray(#"["a"]"#)).sorted() == ["a", "abc"])
        index.remove(a, "a")
        #expect(index.shape == (2, 1))
        #expect(index.matches(prefix: []) == ["abc"])
        index.remove(abc, "abc")
        #expect(index.shape == (0, 0))
    }

    @Test func removingAnAbsentPairChangesNothing() throws {
        var index = KeyIndex<Int>()
        let key = try QueryKey(json(#"["todos",1]"#))
        index.insert(key, 1)
        index.remove(key, 2)
        index.remove(try QueryKey(json(#"["todos",2]"#)), 1)
        index.remove(try QueryKey(json(#"["todos",1,"x"]"#)), 1)
        index.remove(try QueryKey(json(#"["todos"]"#)), 1)
        #expect(index.count == 1)
        #expect(index.matches(prefix: []) == [1])
    }

    @Test func severalIdsUnderOneKey() throws {
        var index = KeyIndex<Int>()
        let key = try QueryKey(json(#"["todos",{"page":1}]"#))
        let sameKey = try QueryKey(json(#"["todos",{"page":1.0}]"#))
        index.insert(key, 1)
        index.insert(sameKey, 2)
        index.insert(key, 3)
        index.insert(key, 2)  // already present: no effect
        #expect(index.count == 3)
        #expect(index.matches(prefix: try jsonArray(#"["todos",{}]"#)).sorted() == [1, 2, 3])
        index.remove(key, 2)
        #expect(index.count == 2)
        #expect(index.matches(prefix: try jsonArray(#"["todos"]"#)).sorted() == [1, 3])
        index.remove(key, 1)
        #expect(index.shape == (1, 1))  // "todos" node + the key as a bare leaf again
        index.remove(key, 3)
        #expect(index.shape == (0, 0))
        #expect(index.count == 0)
    }

    @Test func structuredElementsMatchPartiallyAndScalarsExactly() throws {
        var index = KeyIndex<Int>()
        let keys = [
            #"["todos",{"page":1,"sort":"asc"}]"#, #"["todos",{"page":2}]"#, #"["todos",[1,2]]"#,
            #"["todos",[1]]"#, #"["todos",1]"#, #"["todos","1"]"#, #"["todos",null]"#,
        ]
        for (id, text) in keys.enumerated() { index.insert(try QueryKey(json(text)), id) }
        func ids(_ text: String) throws -> [Int] { index.matches(prefix: try jsonArray(text)).sorted() }
        #expect(try ids(#"["todos",{"page":1}]"#) == [0])
        #expect(try ids(#"["todos",{}]"#) == [0, 1])
        #expect(try ids(#"["todos",[1]]"#) == [2, 3])
        #expect(try ids(#"["todos",[]]"#) == [2, 3])
        #expect(try ids(#"["todos",1.0]"#) == [4])
        #expect(try ids(#"["todos","1"]"#) == [5])
        #expect(try ids(#"["todos",null]"#) == [6])
        #expect(try ids(#"["todos"]"#) == [0, 1, 2, 3, 4, 5, 6])
        #expect(try ids(#"["users"]"#) == [])
    }

    @Test func copiesAreIndependent() throws {
        var original = KeyIndex<Int>()
        let one = try QueryKey(json(#"["a",1]"#))
        let two = try QueryKey(json(#"["a",2]"#))
        original.insert(one, 1)
        var copy = original
        copy.insert(two, 2)
        copy.remove(one, 1)
        #expect(original.matches(prefix: []) == [1])
        #expect(original.count == 1)
        #expect(copy.matches(prefix: []) == [2])
        #expect(copy.count == 1)
    }

    @Test func forEachMatchVisitsEachMatchOnce() throws {
        var index = KeyIndex<Int>()
        for i in 0..<100 { index.insert(QueryKey(elements: [.string("todos"), .number(JSONNumber(i))]), i) }
        for i in 0..<10 { index.insert(QueryKey(elements: [.string("users"), .number(JSONNumber(i))]), 1000 + i) }
        var seen: [Int] = []
        index.forEachMatch(prefix: [.string("users")]) { seen.append($0) }
        #expect(seen.sorted() == Array(1000..<1010))
        seen = []
        index.forEachMatch(prefix: [.string("todos"), .number(JSONNumber(42))]) { seen.append($0) }
        #expect(seen == [42])
        #expect(index.matches(prefix: []).count == 110)
    }
}
