// Tests of incremental growth and shrinking in QueryTable, ObjectSet and QueryIndex: while a
// migration runs every element is found exactly once (by lookup, iteration and prefix matching),
// removals reach elements in either buffer, copies stay independent, and no insertion or removal
// moves more than `OpenAddressing.migrationStep` slots' worth of elements.

import QuerydJSON
import QuerydTestSupport
import Testing

@testable import QuerydCore

private final class Token {}

/// An element that counts how often its key is read.
private final class KeyCountingElement: QueryIndexElement {
    private let storedKey: QueryKey
    private(set) var keyReads = 0

    init(_ id: Int) {
        storedKey = QueryKey(elements: [.string("m"), .number(JSONNumber(id))])
    }

    var key: QueryKey {
        keyReads += 1
        return storedKey
    }
}

@Suite struct IncrementalMigrationTests {
    /// Inserts elements `next...` until `table` holds over 3,000 and is in the middle of a migration
    /// (some elements moved, some not), returning the elements inserted.
    private func insertUntilMidMigration(_ table: inout QueryTable<KeyedElement>, from next: Int) -> [KeyedElement] {
        table.insert(from: next) { $0.count > 3000 && $0.isMigrating && $0.elementsToMigrate < $0.count / 2 }
    }

    private func expectEachOnce(_ table: QueryTable<KeyedElement>, _ elements: [KeyedElement]) {
        for element in elements where table[element.key] !== element {
            Issue.record("lookup missed \(element.id)")
        }
        var seen: [Int: Int] = [:]
        table.forEach { seen[$0.id, default: 0] += 1 }
        #expect(seen.count == elements.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
        #expect(Set(seen.keys) == Set(elements.map(\.id)))
    }

    @Test func tableFindsEveryElementOnceDuringAMigration() {
        var table = QueryTable<KeyedElement>()
        let all = insertUntilMidMigration(&table, from: 0)
        #expect(table.isMigrating)
        #expect(table.elementsToMigrate > 1000)
        #expect(table.count == all.count)
        expectEachOnce(table, all)
        for miss in all.count..<(all.count + 500) { #expect(table[KeyedElement(miss).key] == nil) }
    }

    @Test func tableRemovesFromEitherBufferDuringAMigration() {
        var table = QueryTable<KeyedElement>()
        var all = insertUntilMidMigration(&table, from: 0)
        // Remove every third element: some are still in the previous buffer, some moved already.
        var removedWhileMigrating = 0
        for element in all where element.id % 3 == 0 {
            if table.isMigrating { removedWhileMigrating += 1 }
            let removed = table.remove(element)
            #expect(removed)
            let again = table.remove(element)
            #expect(!again)
        }
        #expect(removedWhileMigrating > 10)
        all.removeAll { $0.id % 3 == 0 }
        #expect(table.count == all.count)
        expectEachOnce(table, all)
        for gone in stride(from: 0, to: 3000, by: 3) { #expect(table[KeyedElement(gone).key] == nil) }
    }

    @Test func tableMovesABoundedNumberOfElementsPerOperation() {
        var table = QueryTable<KeyedElement>()
        var elements: [KeyedElement] = []
        var migrations = 0
        for id in 0..<200_000 {
            let wasMigrating = table.isMigrating
            let pending = table.elementsToMigrate
            let capacity = table.capacity
            let element = KeyedElement(id)
            table.insert(element)
            elements.append(element)
            if table.capacity != capacity {
                // A new migration starts only after the previous one ended.
                #expect(!wasMigrating, "a growth at \(id) found the previous migration unfinished")
                migrations += 1
                // Its first step moved at most a step's worth of the elements.
                #expect(table.count - 1 - table.elementsToMigrate <= OpenAddressing.migrationStep)
            } else if wasMigrating {
                #expect(pending - table.elementsToMigrate <= OpenAddressing.migrationStep)
            }
        }
        #expect(migrations >= 20)
        // Shrinking: removals move at most a step's worth too, and memory goes down in the end.
        let grown = table.capacity
        for element in elements[1000...] {
            let wasMigrating = table.isMigrating
            let pending = table.elementsToMigrate
            table.remove(element)
            if wasMigrating {
                #expect(pending - table.elementsToMigrate <= OpenAddressing.migrationStep)
            }
        }
        while table.isMigrating {  // lookups do not move elements; a removal and insertion do
            let element = elements[0]
            table.remove(element)
            table.insert(element)
        }
        #expect(table.capacity < grown / 64)
        expectEachOnce(table, Array(elements[..<1000]))
    }

    @Test func tableMigrationsReadNoElementsKey() {
        // A migration places each element by what its slot keeps of its hash, so the keys of the
        // elements it moves are not read (not hashed again, their memory not touched).
        var table = QueryTable<KeyCountingElement>()
        var stored: [KeyCountingElement] = []
        var moved = 0
        var next = 0
        while moved < 20_000 {
            let capacity = table.capacity
            let pending = table.elementsToMigrate
            let element = KeyCountingElement(next)
            next += 1
            table.insert(element)
            moved +=
                capacity == table.capacity
                ? pending - table.elementsToMigrate : table.count - 1 - table.elementsToMigrate
            stored.append(element)
        }
        // Each key is read when its element is inserted; a lookup meeting an equal tag reads one now and then.
        let reads = stored.reduce(0) { $0 + $1.keyReads } - stored.count
        #expect(reads < moved / 20, "\(reads) key reads while \(moved) elements moved")
    }

    @Test func tableCopiesStayIndependentDuringAMigration() {
        var table = QueryTable<KeyedElement>()
        let all = insertUntilMidMigration(&table, from: 0)
        var copy = table
        let extra = KeyedElement(all.count)
        copy.insert(extra)
        copy.remove(all[0])
        expectEachOnce(table, all)
        expectEachOnce(copy, Array(all.dropFirst()) + [extra])
    }

    @Test func setFindsEveryObjectOnceAndRemovesFromEitherBufferDuringAMigration() {
        var set = ObjectSet<Token>()
        var tokens: [Token] = []
        repeat {
            let token = Token()
            set.insert(token)
            tokens.append(token)
        } while !(tokens.count > 3000 && set.isMigrating && set.elementsToMigrate < set.count / 2)
        for token in tokens where !set.contains(token) { Issue.record("contains missed a token") }
        var seen = Set<ObjectIdentifier>()
        set.forEach { #expect(seen.insert(ObjectIdentifier($0)).inserted) }
        #expect(seen.count == tokens.count)
        #expect(!set.contains(Token()))
        let inserted = set.insert(tokens[0])
        #expect(!inserted)

        var rng = SeededGenerator(seed: 11)
        tokens.shuffle(using: &rng)
        var removedWhileMigrating = 0
        while set.isMigrating, tokens.count > 100 {
            let token = tokens.removeLast()
            let removed = set.remove(token)
            #expect(removed)
            #expect(!set.contains(token))
            removedWhileMigrating += 1
        }
        #expect(removedWhileMigrating > 10)
        for token in tokens where !set.contains(token) { Issue.record("lost a token") }
        #expect(set.count == tokens.count)
    }

    @Test func setMovesABoundedNumberOfObjectsPerOperation() {
        var set = ObjectSet<Token>()
        var tokens: [Token] = []
        var migrations = 0
        for _ in 0..<100_000 {
            let wasMigrating = set.isMigrating
            let pending = set.elementsToMigrate
            let capacity = set.capacity
            let token = Token()
            set.insert(token)
            tokens.append(token)
            if set.capacity != capacity {
                #expect(!wasMigrating)
                migrations += 1
                #expect(set.count - 1 - set.elementsToMigrate <= OpenAddressing.migrationStep)
            } else if wasMigrating {
                #expect(pending - set.elementsToMigrate <= OpenAddressing.migrationStep)
            }
        }
        #expect(migrations >= 20)
        for token in tokens.dropFirst(50) {
            let wasMigrating = set.isMigrating
            let pending = set.elementsToMigrate
            set.remove(token)
            if wasMigrating { #expect(pending - set.elementsToMigrate <= OpenAddressing.migrationStep) }
        }
        for token in tokens.prefix(50) where !set.contains(token) { Issue.record("lost a token") }
    }

    @Test func indexMatchesEachElementOnceWhileItsTableAndSetsMigrate() {
        // ["m", i] keys: one trie node's set and the table grow together; check the prefix
        // filter, an exact key, and `all` after every insertion around each growth.
        var index = QueryIndex<KeyedElement>()
        var elements: [KeyedElement] = []
        var checkedMidMigration = 0
        for id in 0..<30_000 {
            let element = KeyedElement(id)
            index.insert(element)
            elements.append(element)
            guard index.isMigrating, id % 7 == 0 else { continue }
            checkedMidMigration += 1
            let matched = index.matches(prefix: [.string("m")])
            #expect(matched.count == elements.count)
            #expect(Set(matched.map(\.id)).count == elements.count)
            #expect(index.all.count == elements.count)
            let probe = elements[id / 2]
            #expect(index.matches(prefix: probe.key.elements).map(\.id) == [probe.id])
        }
        #expect(checkedMidMigration > 20)
        for element in elements where element.id % 2 == 1 { index.remove(element) }
        let matched = index.matches(prefix: [.string("m")])
        #expect(Set(matched.map(\.id)) == Set(elements.filter { $0.id % 2 == 0 }.map(\.id)))
    }

    @Test func indexFindsEveryChildOnceWhileANodesChildrenMigrate() {
        // ["u", i, "p"]: the node ["u"] gets one child per i, in a set that grows incrementally.
        var index = QueryIndex<KeyedElement>()
        var elements: [KeyedElement] = []
        var checkedMidMigration = 0
        func key(_ id: Int) -> QueryKey { QueryKey(elements: [.string("u"), .number(JSONNumber(id)), .string("p")]) }
        for id in 0..<20_000 {
            let element = KeyedElement(key(id), id: id)
            index.insert(element)
            elements.append(element)
            guard let node = index.node([.string("u")]), node.scalarChildren.isMigrating, id % 5 == 0 else { continue }
            checkedMidMigration += 1
            #expect(node.scalarChildren.count == elements.count)
            let probe = elements[id / 3]
            #expect(index.matches(prefix: [.string("u"), .number(JSONNumber(probe.id))]).map(\.id) == [probe.id])
            #expect(index.matches(prefix: [.string("u")]).count == elements.count)
        }
        #expect(checkedMidMigration > 20)
        #expect(index.shape.nodes == 1 + elements.count)
        // Removing prunes the children, shrinking the set incrementally.
        var removedMidMigration = 0
        for element in elements where element.id % 10 != 0 {
            if index.node([.string("u")])?.scalarChildren.isMigrating == true { removedMidMigration += 1 }
            let removed = index.remove(element)
            #expect(removed)
        }
        #expect(removedMidMigration > 10)
        let kept = elements.filter { $0.id % 10 == 0 }
        #expect(index.shape.nodes == 1 + kept.count)
        #expect(Set(index.matches(prefix: [.string("u")]).map(\.id)) == Set(kept.map(\.id)))
        for element in kept {
            #expect(index.matches(prefix: [.string("u"), .number(JSONNumber(element.id))]).map(\.id) == [element.id])
        }
    }
}
