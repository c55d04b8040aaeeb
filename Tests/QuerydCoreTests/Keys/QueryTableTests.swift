// Tests of QueryTable: lookups through growth, shrinking and tombstones, keys whose hash tags
// collide, and the slot memory per entry.

import QuerydJSON
import QuerydTestSupport
import Testing

@testable import QuerydCore

/// A stored object with a key, standing in for `Query`.
final class KeyedElement: QueryIndexElement {
    let key: QueryKey
    let id: Int

    init(_ key: QueryKey, id: Int) {
        self.key = key
        self.id = id
    }

    convenience init(_ id: Int, prefix: String = "m") {
        self.init(QueryKey(elements: [.string(prefix), .number(JSONNumber(id))]), id: id)
    }
}

@Suite struct QueryTableTests {
    @Test func insertLookupAndRemoveThroughGrowthAndShrink() {
        var table = QueryTable<KeyedElement>()
        #expect(table[KeyedElement(0).key] == nil)
        #expect(table.capacity == 0)
        let elements = (0..<20_000).map { KeyedElement($0) }
        for (n, element) in elements.enumerated() {
            table.insert(element)
            #expect(table.count == n + 1)
            if n % 997 == 0 {
                for earlier in elements[...n] where table[earlier.key] !== earlier {
                    Issue.record("lost \(earlier.key) after \(n + 1) insertions")
                }
            }
        }
        let grownCapacity = table.capacity
        #expect(grownCapacity >= 20_000)
        for element in elements {
            #expect(table[element.key] === element)
            let found = element.key.withCanonicalBytes { table.element(canonicalBytes: $0) }
            #expect(found === element)
        }
        for miss in 20_000..<21_000 {
            #expect(table[KeyedElement(miss).key] == nil)
        }
        #expect(table[KeyedElement(5, prefix: "n").key] == nil)

        // Remove all but 100: the table shrinks and keeps finding the rest.
        for element in elements[100...] {
            let removed = table.remove(element)
            #expect(removed)
        }
        #expect(table.count == 100)
        #expect(table.capacity < grownCapacity / 8)
        for element in elements[..<100] { #expect(table[element.key] === element) }
        for element in elements[100..<200] { #expect(table[element.key] == nil) }
        var visited = Set<Int>()
        table.forEach { visited.insert($0.id) }
        #expect(visited == Set(0..<100))

        for element in elements[..<100] { table.remove(element) }
        #expect(table.count == 0)
        #expect(table.capacity == 0)
    }

    @Test func removeIsByIdentity() {
        var table = QueryTable<KeyedElement>()
        let stored = KeyedElement(1)
        table.insert(stored)
        let removedEqualKey = table.remove(KeyedElement(1))  // an equal key, another object
        let removedOtherKey = table.remove(KeyedElement(2))
        #expect(!removedEqualKey)
        #expect(!removedOtherKey)
        #expect(table.count == 1)
        #expect(table[stored.key] === stored)
        let removedFirst = table.remove(stored)
        let removedAgain = table.remove(stored)
        #expect(removedFirst)
        #expect(!removedAgain)
        #expect(table.count == 0)
    }

    @Test func tombstonesAreReusedAndCleared() {
        var table = QueryTable<KeyedElement>()
        var live = (0..<1000).map { KeyedElement($0) }
        for element in live { table.insert(element) }
        var capacity = table.capacity
        // Churn: remove one, insert a new key, many times over. The count stays at 1000, so the
        // table may grow once at most (when the live load is high), then rebuilds in place;
        // tombstones must not pile up past the load limit.
        var rng = SeededGenerator(seed: 99)
        var next = 1000
        for round in 0..<50_000 {
            if round == 5000 {
                #expect(table.capacity <= OpenAddressing.grown(capacity))
                capacity = table.capacity
            }
            let position = Int.random(in: 0..<live.count, using: &rng)
            let removed = table.remove(live[position])
            #expect(removed)
            live[position] = KeyedElement(next)
            next += 1
            table.insert(live[position])
            #expect(table.count + table.tombstones <= OpenAddressing.maximumLoad(table.capacity))
        }
        #expect(table.capacity == capacity)
        #expect(table.count == 1000)
        for element in live { #expect(table[element.key] === element) }
        for gone in 0..<1000 { #expect(table[KeyedElement(gone).key] == nil) }
    }

    @Test func lookUpOrAddThroughChurnFindsOrPlacesEveryKey() {
        // `element(for:orAdding:)` places a new key in the free slot its lookup passed when no
        // migration runs: through growth, tombstone rebuilds and copies, every key stays findable
        // and is never stored twice.
        var table = QueryTable<KeyedElement>()
        var live: [Int: KeyedElement] = [:]
        var rng = SeededGenerator(seed: 7)
        var copies: [(QueryTable<KeyedElement>, [Int: KeyedElement])] = []
        for round in 0..<60_000 {
            let id = Int.random(in: 0..<3000, using: &rng)
            if let stored = live[id], Bool.random(using: &rng) {
                let removed = table.remove(stored)
                #expect(removed)
                live[id] = nil
                continue
            }
            var made: KeyedElement?
            let result = table.element(for: KeyedElement(id).key) {
                made = KeyedElement(id)
                return made!
            }
            #expect(result.added == (live[id] == nil))
            if let stored = live[id] {
                #expect(result.element === stored && made == nil)
            } else {
                #expect(result.element === made)
                live[id] = made
            }
            #expect(table.count == live.count)
            #expect(table.count + table.tombstones <= OpenAddressing.maximumLoad(table.capacity))
            if round % 10_000 == 0 { copies.append((table, live)) }
        }
        for (id, element) in live { #expect(table[element.key] === element, "lost \(id)") }
        var seen = 0
        table.forEach { _ in seen += 1 }
        #expect(seen == live.count)
        for (copy, stored) in copies {
            #expect(copy.count == stored.count)
            for element in stored.values where copy[element.key] !== element {
                Issue.record("a copy lost \(element.id)")
            }
        }
    }

    @Test func byteStringsCompareEqualOnlyWhenEveryByteIs() {
        // Every length a comparison takes a different path for, a difference at every position.
        for count in 0...27 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            var same = bytes
            same.append(0)
            let equal = bytes.withUnsafeBytes { a in
                same.withUnsafeBytes {
                    QueryTable<KeyedElement>.equal(a, UnsafeRawBufferPointer(rebasing: $0[..<count]))
                }
            }
            #expect(equal, "length \(count)")
            for position in 0..<count {
                var other = bytes
                other[position] ^= 0x40
                let differ = bytes.withUnsafeBytes { a in
                    other.withUnsafeBytes { QueryTable<KeyedElement>.equal(a, $0) }
                }
                #expect(!differ, "length \(count), position \(position)")
            }
            let longer = bytes.withUnsafeBytes { a in same.withUnsafeBytes { QueryTable<KeyedElement>.equal(a, $0) } }
            #expect(!longer)
        }
    }

    @Test func keysWithTheSameTagAreToldApartByTheirBytes() {
        // Gather keys whose 7-bit tags are all equal, so every probe that meets one of them must
        // compare the keys' bytes.
        var sameTag: [KeyedElement] = []
        var candidate = 0
        let wanted = KeyedElement(0).key.withCanonicalBytes {
            QueryTable<KeyedElement>.tag(KeyHash.process($0))
        }
        while sameTag.count < 2000 {
            let element = KeyedElement(candidate)
            let tag = element.key.withCanonicalBytes { QueryTable<KeyedElement>.tag(KeyHash.process($0)) }
            if tag == wanted { sameTag.append(element) }
            candidate += 1
        }
        var table = QueryTable<KeyedElement>()
        for element in sameTag.prefix(1500) { table.insert(element) }
        for element in sameTag.prefix(1500) { #expect(table[element.key] === element) }
        for element in sameTag.dropFirst(1500) { #expect(table[element.key] == nil) }
        for element in sameTag.prefix(1500) where element.id % 2 == 0 { table.remove(element) }
        for element in sameTag.prefix(1500) {
            #expect(table[element.key] === (element.id % 2 == 0 ? nil : element))
        }
    }

    @Test func slotMemoryPerEntryStaysSmallAtEverySize() {
        // Outside migrations the slots cost what one buffer does; during one (a short stretch
        // after each growth) the previous buffer is still there beside the new one.
        var table = QueryTable<KeyedElement>()
        var total = 0.0
        var samples = 0
        var worst = 0.0
        var worstMigrating = 0.0
        var migratingSamples = 0
        for n in 0..<100_000 {
            table.insert(KeyedElement(n))
            let size = n + 1
            guard size >= 64 else { continue }
            if table.isMigrating {
                worstMigrating = max(worstMigrating, table.bytesPerEntry)
                migratingSamples += 1
                continue
            }
            total += table.bytesPerEntry
            samples += 1
            worst = max(worst, table.bytesPerEntry)
            if [100, 1000, 10_000, 100_000].contains(size) {
                #expect(table.bytesPerEntry <= 24, "at \(size): \(table.bytesPerEntry)")
            }
        }
        // 13 bytes per slot: a control byte, 32 bits of the hash, a reference.
        let average = total / Double(samples)
        #expect(average <= 20.5, "average \(average)")
        #expect(worst <= 24, "worst \(worst)")
        #expect(worstMigrating <= 39, "worst while migrating \(worstMigrating)")
        // A migration of C slots takes C / 32 insertions; the next growth comes 0.43 C later. With
        // the growths before it (3 C in all), at most 11 % of the insertions find one running.
        #expect(migratingSamples * 8 <= samples + migratingSamples, "migrating during \(migratingSamples) insertions")
    }
}
