// Tests of ObjectSet: backward-shift deletion against a model set over random operations, and
// the slot memory per entry.

import QuerydTestSupport
import Testing

@testable import QuerydCore

private final class Token {}

@Suite struct ObjectSetTests {
    @Test func agreesWithAModelSetOverRandomOperations() {
        var rng = SeededGenerator(seed: 4242)
        let pool = (0..<600).map { _ in Token() }
        var set = ObjectSet<Token>()
        var model = Set<ObjectIdentifier>()
        for step in 0..<60_000 {
            // Phases that favour insertion, then removal, so the set grows and shrinks repeatedly.
            let inserting =
                (step / 5000) % 2 == 0
                ? Int.random(in: 0..<4, using: &rng) != 0 : Int.random(in: 0..<4, using: &rng) == 0
            let token = pool[Int.random(in: 0..<pool.count, using: &rng)]
            if inserting {
                let result = set.insert(token)
                #expect(result == model.insert(ObjectIdentifier(token)).inserted)
            } else {
                let result = set.remove(token)
                #expect(result == (model.remove(ObjectIdentifier(token)) != nil))
            }
            #expect(set.count == model.count)
            if step % 500 == 0 {
                for token in pool where set.contains(token) != model.contains(ObjectIdentifier(token)) {
                    Issue.record("contains disagrees at step \(step)")
                }
                var seen = Set<ObjectIdentifier>()
                set.forEach { #expect(seen.insert(ObjectIdentifier($0)).inserted) }
                #expect(seen == model)
            }
        }
        for token in pool { set.remove(token) }
        #expect(set.isEmpty)
        #expect(set.capacity == 0)
    }

    @Test func removalKeepsEveryRunReachableInAFullSet() {
        // Many objects in a small set make long runs that wrap around the end; remove them in
        // random order and check the rest after each removal.
        var rng = SeededGenerator(seed: 7)
        let tokens = (0..<200).map { _ in Token() }
        var set = ObjectSet<Token>()
        for token in tokens { set.insert(token) }
        var remaining = tokens.shuffled(using: &rng)
        while let token = remaining.popLast() {
            let removed = set.remove(token)
            #expect(removed)
            #expect(!set.contains(token))
            for other in remaining where !set.contains(other) {
                Issue.record("lost an object with \(remaining.count) left")
            }
        }
        #expect(set.isEmpty)
    }

    @Test func slotMemoryPerEntryStaysSmallAtEverySize() {
        // Outside migrations the slots cost what one buffer does; during one (a short stretch
        // after each growth) the previous buffer is still there beside the new one.
        let tokens = (0..<200_000).map { _ in Token() }
        var set = ObjectSet<Token>()
        var total = 0.0
        var samples = 0
        var worst = 0.0
        var worstMigrating = 0.0
        var migratingSamples = 0
        for (n, token) in tokens.enumerated() {
            set.insert(token)
            guard n + 1 >= 64 else { continue }
            if set.isMigrating {
                worstMigrating = max(worstMigrating, set.bytesPerEntry)
                migratingSamples += 1
                continue
            }
            total += set.bytesPerEntry
            samples += 1
            worst = max(worst, set.bytesPerEntry)
        }
        let average = total / Double(samples)
        #expect(average <= 12, "average \(average)")
        #expect(worst <= 14.5, "worst \(worst)")
        #expect(worstMigrating <= 24, "worst while migrating \(worstMigrating)")
        // A migration of C slots takes C / 32 insertions; the next growth comes 0.43 C later. With
        // the growths before it (3 C in all), at most 11 % of the insertions find one running.
        #expect(migratingSamples * 8 <= samples + migratingSamples, "migrating during \(migratingSamples) insertions")
    }
}
