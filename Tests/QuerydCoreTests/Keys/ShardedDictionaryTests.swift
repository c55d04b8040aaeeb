// Tests of ShardedDictionary and ShardedSet: over many random insertions, replacements and
// removals they hold exactly what a standard Dictionary or Set holds, and the entries spread over
// the shards evenly (so no shard's growth rehashes much more than a 64th of them).

import QuerydTestSupport
import Testing

@testable import QuerydCore

@Suite struct ShardedDictionaryTests {
    @Test func matchesADictionaryOverRandomOperations() {
        var generator = SeededGenerator(seed: 20)
        var sharded = ShardedDictionary<Int, Int>()
        var plain: [Int: Int] = [:]
        for step in 0..<50_000 {
            let key = Int.random(in: 0..<5_000, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                #expect(sharded.removeValue(forKey: key) == plain.removeValue(forKey: key))
            case 1:
                sharded[key] = nil
                plain[key] = nil
            case 2:
                #expect(sharded.updateValue(step, forKey: key) == plain.updateValue(step, forKey: key))
            default:
                sharded[key] = step
                plain[key] = step
            }
            #expect(sharded[key] == plain[key])
            #expect(sharded.count == plain.count)
        }
        #expect(!sharded.isEmpty)
        #expect(Dictionary(uniqueKeysWithValues: sharded.map { ($0.key, $0.value) }) == plain)
        for key in plain.keys { sharded[key] = nil }
        #expect(sharded.isEmpty)
        #expect(sharded.count == 0)
        #expect(Array(sharded).isEmpty)
    }

    @Test func setMatchesASetOverRandomOperations() {
        var generator = SeededGenerator(seed: 21)
        var sharded = ShardedSet<Int>()
        var plain = Set<Int>()
        for _ in 0..<50_000 {
            let member = Int.random(in: 0..<5_000, using: &generator)
            if Bool.random(using: &generator) {
                #expect(sharded.insert(member) == plain.insert(member).inserted)
            } else {
                #expect(sharded.remove(member) == plain.remove(member))
            }
            #expect(sharded.contains(member) == plain.contains(member))
            #expect(sharded.count == plain.count)
            #expect(sharded.isEmpty == plain.isEmpty)
        }
        let members = Array(sharded)
        #expect(members.count == plain.count)
        #expect(Set(members) == plain)
    }

    @Test func entriesSpreadEvenlyOverTheShards() {
        var sharded = ShardedDictionary<Int, Int>()
        let share = 1_000
        for key in 0..<(share * ShardedDictionary<Int, Int>.shardCount) { sharded[key] = key }
        let counts = sharded.shardCounts
        #expect(counts.count == 64)
        #expect(counts.reduce(0, +) == sharded.count)
        // About 32 is one standard deviation of a shard's count; 200 is over six.
        #expect(counts.allSatisfy { abs($0 - share) < 200 }, "\(counts)")
    }
}
