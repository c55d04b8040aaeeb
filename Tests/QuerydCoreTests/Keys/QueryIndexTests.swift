// Tests of QueryIndex: exact behaviour of insert/remove/prune, exact lookups, and agreement of
// prefix matching with a brute-force scan over random keys and filters.

import QuerydJSON
import QuerydTestSupport
import Testing

@testable import QuerydCore

private func bruteForce(_ elements: [KeyedElement], _ prefix: [JSONValue]) -> [Int] {
    elements.filter { KeyMatching.matches($0.key, prefix: prefix) }.map(\.id).sorted()
}

private func element(_ text: String, _ id: Int) throws -> KeyedElement {
    KeyedElement(try QueryKey(json(text)), id: id)
}

extension QueryIndex where Element == KeyedElement {
    fileprivate func ids(_ prefix: [JSONValue]) -> [Int] {
        matches(prefix: prefix).map(\.id).sorted()
    }

    fileprivate func ids(_ text: String) throws -> [Int] {
        ids(try jsonArray(text))
    }
}

@Suite struct QueryIndexTests {
    @Test func agreesWithBruteForceOnRandomKeysAndFilters() {
        var generator = KeyGenerator(rng: SeededGenerator(seed: 20_240_601))
        var index = QueryIndex<KeyedElement>()
        var stored: [KeyedElement] = []
        var seenKeys = Set<QueryKey>()
        while stored.count < 5000 {
            let key = generator.key()
            guard seenKeys.insert(key).inserted else { continue }
            let element = KeyedElement(key, id: stored.count)
            stored.append(element)
            index.insert(element)
        }
        #expect(index.count == 5000)
        #expect(index.shape.leaves == 5000)
        for element in stored { #expect(index[element.key] === element) }
        var nonTrivial = 0
        var structured = 0
        var structuredLast = 0
        for round in 0..<400 {
            let prefix = round == 0 ? [] : generator.filter(near: stored.map(\.key))
            let expected = bruteForce(stored, prefix)
            var visits = 0
            index.forEachMatch(prefix: prefix) { _ in visits += 1 }
            #expect(visits == expected.count, "each match once for \(JSONValue.array(prefix))")
            #expect(index.ids(prefix) == expected, "filter \(JSONValue.array(prefix))")
            if expected.count > 1, expected.count < 5000 { nonTrivial += 1 }
            if prefix.contains(where: isStructured) { structured += 1 }
            if let last = prefix.last, isStructured(last) { structuredLast += 1 }
        }
        // The generator must really exercise the interesting cases.
        #expect(nonTrivial > 100)
        #expect(structured > 30)
        #expect(structuredLast > 15)

        // Remove a random half and check again.
        var remaining: [KeyedElement] = []
        for element in stored {
            if Bool.random(using: &generator.rng) {
                let removed = index.remove(element)
                #expect(removed)
            } else {
                remaining.append(element)
            }
        }
        #expect(index.count == remaining.count)
        #expect(index.shape.leaves == remaining.count)
        for _ in 0..<150 {
            let prefix = generator.filter(near: stored.map(\.key))
            #expect(index.ids(prefix) == bruteForce(remaining, prefix), "filter \(JSONValue.array(prefix))")
        }
        for element in remaining { index.remove(element) }
        #expect(index.count == 0)
        #expect(index.shape == (0, 0))
        #expect(index.matches(prefix: []).isEmpty)
    }

    @Test func insertRemoveAndPrune() throws {
        var index = QueryIndex<KeyedElement>()
        let abc = try element(#"["a","b","c"]"#, 1)
        let a = try element(#"["a"]"#, 2)
        index.insert(abc)
        #expect(index.shape == (2, 1))  // nodes ["a"] and ["a","b"]; the key itself is no node
        index.insert(a)
        #expect(index.shape == (2, 2))  // ["a"] is a leaf of the root
        #expect(try index.ids(#"["a"]"#) == [1, 2])
        #expect(try index.ids(#"["a","b"]"#) == [1])
        #expect(try index.ids(#"["a","b","c"]"#) == [1])
        #expect(try index.ids(#"["a","b","c","d"]"#) == [])

        index.remove(abc)
        #expect(index.shape == (0, 1))  // both nodes pruned
        #expect(index.ids([]) == [2])
        index.remove(a)
        #expect(index.shape == (0, 0))
        #expect(index.count == 0)

        // The other order.
        index.insert(a)
        #expect(index.shape == (0, 1))
        index.insert(abc)
        #expect(index.shape == (2, 2))
        #expect(try index.ids(#"["a"]"#) == [1, 2])
        index.remove(a)
        #expect(index.shape == (2, 1))
        #expect(index.ids([]) == [1])
        index.remove(abc)
        #expect(index.shape == (0, 0))
    }

    @Test func pruningStopsAtTheFirstNodeStillInUse() throws {
        var index = QueryIndex<KeyedElement>()
        let deep = try element(#"["a","b","c","d"]"#, 1)
        let sibling = try element(#"["a","x"]"#, 2)
        index.insert(deep)
        index.insert(sibling)
        #expect(index.shape == (3, 2))
        index.remove(deep)
        #expect(index.shape == (1, 1))  // ["a"] stays for ["a","x"]
        #expect(try index.ids(#"["a"]"#) == [2])
    }

    @Test func removingAnAbsentElementChangesNothing() throws {
        var index = QueryIndex<KeyedElement>()
        let stored = try element(#"["todos",1]"#, 1)
        index.insert(stored)
        let absent = [
            try element(#"["todos",1]"#, 2),  // an equal key, another object
            try element(#"["todos",2]"#, 1), try element(#"["todos",1,"x"]"#, 1), try element(#"["todos"]"#, 1),
        ]
        for element in absent {
            let removed = index.remove(element)
            #expect(!removed, "\(element.key)")
        }
        #expect(index.count == 1)
        #expect(index.shape == (1, 1))
        #expect(index.ids([]) == [1])
        #expect(index[stored.key] === stored)
    }

    @Test func exactLookupByKeyOrCanonicalBytes() throws {
        var index = QueryIndex<KeyedElement>()
        let stored = try element(#"["todos",{"page":1,"sort":"asc"}]"#, 1)
        index.insert(stored)
        // Another spelling of the same key: member order and 1.0 do not matter.
        let sameKey = try QueryKey(json(#"["todos",{"sort":"asc","page":1.0}]"#))
        #expect(index[sameKey] === stored)
        let bytes = Array(#"["todos",{"page":1,"sort":"asc"}]"#.utf8)
        #expect(bytes.withUnsafeBytes { index.element(canonicalBytes: $0) } === stored)
        #expect(index[try QueryKey(json(#"["todos",{"page":1}]"#))] == nil)
        #expect(Array(#"["todos"]"#.utf8).withUnsafeBytes { index.element(canonicalBytes: $0) } == nil)

        // Replacing the element stored under a key: remove it, insert the new one.
        let replacement = KeyedElement(sameKey, id: 2)
        index.remove(stored)
        index.insert(replacement)
        #expect(index[stored.key] === replacement)
        #expect(try index.ids(#"["todos",{}]"#) == [2])
        #expect(index.count == 1)
    }

    @Test func structuredElementsMatchPartiallyAndScalarsExactly() throws {
        var index = QueryIndex<KeyedElement>()
        let keys = [
            #"["todos",{"page":1,"sort":"asc"}]"#, #"["todos",{"page":2}]"#, #"["todos",[1,2]]"#,
            #"["todos",[1]]"#, #"["todos",1]"#, #"["todos","1"]"#, #"["todos",null]"#,
        ]
        for (id, text) in keys.enumerated() { index.insert(try element(text, id)) }
        #expect(try index.ids(#"["todos",{"page":1}]"#) == [0])
        #expect(try index.ids(#"["todos",{}]"#) == [0, 1])
        #expect(try index.ids(#"["todos",[1]]"#) == [2, 3])
        #expect(try index.ids(#"["todos",[]]"#) == [2, 3])
        #expect(try index.ids(#"["todos",1.0]"#) == [4])
        #expect(try index.ids(#"["todos","1"]"#) == [5])
        #expect(try index.ids(#"["todos",null]"#) == [6])
        #expect(try index.ids(#"["todos"]"#) == [0, 1, 2, 3, 4, 5, 6])
        #expect(try index.ids(#"["users"]"#) == [])
    }

    /// An integral double beyond Int64 (`1e20`, which prints "1e+20") and the big-integer literal of
    /// the same number are JSON-equal: a filter with either form reaches the trie child (found by
    /// canonical bytes) made by the other, and a near big integer stays apart.
    @Test func bigIntegersAndEqualDoublesInsideTheKeyMatchEitherForm() throws {
        var index = QueryIndex<KeyedElement>()
        let keys = [
            #"["n",1e20,"a"]"#, #"["n",100000000000000000000,"b"]"#, #"["d",1e20,"a"]"#,
            #"["i",100000000000000000000,"a"]"#, #"["i",100000000000000000001,"a"]"#, #"["d",1e21,"a"]"#,
        ]
        for (id, text) in keys.enumerated() { index.insert(try element(text, id)) }
        #expect(index.shape.nodes == 8)
        #expect(try index.ids(#"["n",1e20]"#) == [0, 1])
        #expect(try index.ids(#"["n",100000000000000000000]"#) == [0, 1])
        #expect(try index.ids(#"["n",100000000000000000000,"a"]"#) == [0])
        #expect(try index.ids(#"["d",100000000000000000000]"#) == [2])
        #expect(try index.ids(#"["i",1e20]"#) == [3])
        #expect(try index.ids(#"["i",1e20,"a"]"#) == [3])
        #expect(try index.ids(#"["d",1000000000000000000000]"#) == [5])
        var cursor = QueryIndexCursor<KeyedElement>(prefix: try jsonArray(#"["i",1e20]"#))
        var visited: [Int] = []
        while !cursor.isDone { _ = cursor.step(in: index, budget: 4) { visited.append($0.takeUnretainedValue().id) } }
        #expect(visited == [3])
        index.remove(index[try QueryKey(json(#"["n",1e20,"a"]"#))]!)
        #expect(try index.ids(#"["n",100000000000000000000]"#) == [1])
        index.remove(index[try QueryKey(json(#"["n",100000000000000000000,"b"]"#))]!)
        #expect(index.shape.nodes == 6)
    }

    /// Trie children are found by their element's canonical bytes: a filter element spelled
    /// otherwise (`1.0`, `1e0`, a decomposed "é") reaches the same child, and the cursor does too.
    @Test func scalarsInsideTheKeyMatchEverySpellingOfTheirValue() throws {
        var index = QueryIndex<KeyedElement>()
        let keys = [#"["t",1,"x"]"#, #"["t","\u00e9","x"]"#, #"["t",2,"x"]"#, #"["t",-0.5,"x"]"#]
        for (id, text) in keys.enumerated() { index.insert(try element(text, id)) }
        #expect(try index.ids(#"["t",1.0]"#) == [0])
        #expect(try index.ids(#"["t",1e0,"x"]"#) == [0])
        #expect(try index.ids(#"["t","e\u0301"]"#) == [1])
        #expect(try index.ids(#"["t",-5e-1]"#) == [3])
        var cursor = QueryIndexCursor<KeyedElement>(prefix: try jsonArray(#"["t","e\u0301"]"#))
        var visited: [Int] = []
        while !cursor.isDone { _ = cursor.step(in: index, budget: 4) { visited.append($0.takeUnretainedValue().id) } }
        #expect(visited == [1])
        index.remove(index[try QueryKey(json(#"["t",1,"x"]"#))]!)
        #expect(try index.ids(#"["t",1.0]"#) == [])
        #expect(index.shape.nodes == 4)
    }

    @Test func structuredElementsInsideThePrefixMatchEveryFittingBranch() throws {
        var index = QueryIndex<KeyedElement>()
        let keys = [
            #"["todos",{"page":1,"sort":"asc"},"a"]"#, #"["todos",{"page":1},"a"]"#, #"["todos",{"page":2},"a"]"#,
            #"["todos",{"page":1},"b",5]"#, #"["todos",[1,2],"a"]"#,
        ]
        for (id, text) in keys.enumerated() { index.insert(try element(text, id)) }
        #expect(try index.ids(#"["todos",{"page":1},"a"]"#) == [0, 1])
        #expect(try index.ids(#"["todos",{},"a"]"#) == [0, 1, 2])
        #expect(try index.ids(#"["todos",{"page":1},"b"]"#) == [3])
        #expect(try index.ids(#"["todos",{"page":1},"b",5.0]"#) == [3])
        #expect(try index.ids(#"["todos",[1],"a"]"#) == [4])
        #expect(try index.ids(#"["todos",[],"b"]"#) == [])
    }

    @Test func copiesAreIndependent() throws {
        var original = QueryIndex<KeyedElement>()
        let one = try element(#"["a",1]"#, 1)
        let two = try element(#"["a",2]"#, 2)
        original.insert(one)
        var copy = original
        copy.insert(two)
        copy.remove(one)
        #expect(original.ids([]) == [1])
        #expect(original.count == 1)
        #expect(original[one.key] === one)
        #expect(original[two.key] == nil)
        #expect(try original.ids(#"["a"]"#) == [1])
        #expect(copy.ids([]) == [2])
        #expect(copy.count == 1)
        #expect(try copy.ids(#"["a"]"#) == [2])
    }

    @Test func insertionsUnderTheLastPrefixFollowPruningAndCopies() throws {
        // Inserting skips the descent when the key is one element below the node the last
        // insertion used; that node must still be in this index's trie.
        var index = QueryIndex<KeyedElement>()
        let one = try element(#"["a","b",1]"#, 1)
        index.insert(one)
        index.remove(one)
        #expect(index.shape == (0, 0))
        index.insert(try element(#"["a","b",2]"#, 2))
        #expect(try index.ids(#"["a","b"]"#) == [2])
        var copy = index
        index.insert(try element(#"["a","b",3]"#, 3))
        copy.insert(try element(#"["a","b",4]"#, 4))
        #expect(try index.ids(#"["a"]"#) == [2, 3])
        #expect(try copy.ids(#"["a"]"#) == [2, 4])
        #expect(index.shape == (2, 2) && copy.shape == (2, 2))
        // A sibling prefix, then the last path's deepest node pruned: the next key resumes at ["a"].
        let five = try element(#"["a","c",5]"#, 5)
        index.insert(five)
        index.remove(five)
        index.insert(try element(#"["a","c",6]"#, 6))
        #expect(try index.ids(#"["a","c"]"#) == [6])
        #expect(index.shape == (3, 3))
    }

    @Test func interleavedInsertionsAndRemovalsAgreeWithBruteForce() {
        var generator = KeyGenerator(rng: SeededGenerator(seed: 20_261_125))
        var index = QueryIndex<KeyedElement>()
        var stored: [KeyedElement] = []
        var seenKeys = Set<QueryKey>()
        for step in 0..<3000 {
            if stored.isEmpty || Int.random(in: 0..<5, using: &generator.rng) < 3 {
                let key = generator.key()
                guard seenKeys.insert(key).inserted else { continue }
                let element = KeyedElement(key, id: step)
                stored.append(element)
                index.insert(element)
            } else {
                let removed = stored.remove(at: Int.random(in: 0..<stored.count, using: &generator.rng))
                seenKeys.remove(removed.key)
                let found = index.remove(removed)
                #expect(found)
            }
            guard step % 100 == 99 else { continue }
            #expect(index.shape.leaves == stored.count)
            for _ in 0..<20 {
                let prefix = generator.filter(near: stored.map(\.key))
                #expect(index.ids(prefix) == bruteForce(stored, prefix), "filter \(JSONValue.array(prefix))")
            }
        }
    }

    @Test func forEachMatchVisitsEachMatchOnce() {
        var index = QueryIndex<KeyedElement>()
        for i in 0..<100 { index.insert(KeyedElement(i, prefix: "todos")) }
        for i in 0..<10 { index.insert(KeyedElement(1000 + i, prefix: "users")) }
        var seen: [Int] = []
        index.forEachMatch(prefix: [.string("users")]) { seen.append($0.id) }
        #expect(seen.sorted() == Array(1000..<1010))
        seen = []
        index.forEachMatch(prefix: [.string("todos"), .number(JSONNumber(42))]) { seen.append($0.id) }
        #expect(seen == [42])
        #expect(index.matches(prefix: []).count == 110)
        #expect(index.all.map(\.id).sorted() == Array(0..<100) + Array(1000..<1010))
    }

    @Test func keysOfOnePrefixShareOneNode() {
        var index = QueryIndex<KeyedElement>()
        for i in 0..<20_000 { index.insert(KeyedElement(i)) }
        #expect(index.shape == (1, 20_000))  // the root and ["m"]: two nodes in all
        #expect(index.tableBytesPerEntry <= 24)
        #expect(index.ids([.string("m"), .number(JSONNumber(19_999))]) == [19_999])
        #expect(index.ids([.string("m"), .number(JSONNumber(20_000))]) == [])
    }
}
