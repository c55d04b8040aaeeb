// A prefix walk over the index in bounded steps (issue 20): while elements are inserted and removed
// between steps, and the sets grow, shrink and migrate, it visits every element present
// throughout exactly once, never one removed before it was reached, and no step does more than
// about its budget of work.

import QuerydJSON
import QuerydTestSupport
import Testing

@testable import QuerydCore

@Suite struct QueryIndexCursorTests {
    /// Keys of three shapes: ["m", i] (one node's leaves), ["u", i, "p"] (one child per i) and
    /// ["s", {"n": i}] (structured leaves).
    private static func key(_ id: Int) -> QueryKey {
        let number = JSONValue.number(JSONNumber(id))
        switch id % 3 {
        case 0: return QueryKey(elements: [.string("m"), number])
        case 1: return QueryKey(elements: [.string("u"), number, .string("p")])
        default: return QueryKey(elements: [.string("s"), .object(["n": number])])
        }
    }

    @Test(arguments: [
        [JSONValue](), [.string("m")], [.string("u")], [.string("s"), .object([:])],
    ])
    func walkVisitsEachElementPresentThroughoutOnceWhileTheIndexChanges(prefix: [JSONValue]) {
        var rng = SeededGenerator(seed: 20)
        var index = QueryIndex<KeyedElement>()
        var present: [Int: KeyedElement] = [:]
        var nextID = 0
        func insert() {
            let element = KeyedElement(Self.key(nextID), id: nextID)
            index.insert(element)
            present[nextID] = element
            nextID += 1
        }
        var removed = Set<Int>()
        func removeRandom() {
            guard let id = present.keys.randomElement(using: &rng), let element = present.removeValue(forKey: id)
            else { return }
            index.remove(element)
            removed.insert(id)
        }
        for _ in 0..<9_000 { insert() }
        let atStart = Set(present.keys.filter { KeyMatching.matches(Self.key($0), prefix: prefix) })
        removed = []
        var visited = Set<Int>()
        var cursor = QueryIndexCursor<KeyedElement>(prefix: prefix)
        let budget = 48
        var steps = 0
        var stepsMidMigration = 0
        var maxUsed = 0
        var totalUsed = 0
        while !cursor.isDone {
            var visitsThisStep = 0
            let used = cursor.step(in: index, budget: budget) { element in
                let id = element.takeUnretainedValue().id
                #expect(visited.insert(id).inserted, "visited \(id) twice")
                #expect(present[id] != nil, "visited \(id) after its removal")
                visitsThisStep += 1
            }
            #expect(visitsThisStep <= used)
            maxUsed = max(maxUsed, used)
            totalUsed += used
            steps += 1
            // Growth first (new elements, a few removals), then mostly removals (shrinking).
            let (inserts, removals) = steps < 120 ? (10, 3) : (0, 45)
            for _ in 0..<inserts { insert() }
            for _ in 0..<removals { removeRandom() }
            if index.node([.string("m")])?.scalarLeaves.isMigrating == true
                || index.node([.string("u")])?.scalarChildren.isMigrating == true
            {
                stepsMidMigration += 1
            }
        }
        #expect(stepsMidMigration > 20)
        // A step ends within its budget plus the rest of one window's probe runs.
        #expect(maxUsed <= 8 * budget, "a step of \(maxUsed) units")
        #expect(totalUsed <= 2 * steps * budget)
        let missed = atStart.subtracting(removed).subtracting(visited)
        #expect(missed.isEmpty, "missed \(missed.count) of \(atStart.count)")
        #expect(visited.allSatisfy { KeyMatching.matches(Self.key($0), prefix: prefix) })
        #expect(steps > atStart.count / budget / 2, "the walk should take many steps")
    }

    @Test func aWalkOverAnUnchangedIndexMatchesForEachMatch() {
        var rng = SeededGenerator(seed: 7)
        var generator = KeyGenerator(rng: SeededGenerator(seed: 8))
        var index = QueryIndex<KeyedElement>()
        for id in 0..<1_000 {
            let key = generator.key()
            if index[key] == nil { index.insert(KeyedElement(key, id: id)) }
        }
        for _ in 0..<12 {
            let prefix = Int.random(in: 0..<4, using: &rng) == 0 ? [] : generator.key().elements
            var walked: [Int] = []
            var cursor = QueryIndexCursor<KeyedElement>(prefix: prefix)
            while !cursor.isDone {
                _ = cursor.step(in: index, budget: Int.random(in: 4...64, using: &rng)) {
                    walked.append($0.takeUnretainedValue().id)
                }
            }
            let expected = index.matches(prefix: prefix).map(\.id).sorted()
            #expect(walked.count == expected.count, "prefix \(prefix)")
            #expect(walked.sorted() == expected, "prefix \(prefix): \(Set(expected).subtracting(walked).count) missed")
        }
    }
}
