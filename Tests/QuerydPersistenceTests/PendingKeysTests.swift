// Tests of PendingKeys, the write-behind's set of keys to write: each key once, taken in batches of
// at most the limit, every key taken exactly once.

import QuerydCore
import QuerydJSON
import Testing

@testable import QuerydPersistence

@Suite struct PendingKeysTests {
    private func key(_ i: Int) -> QueryKey { QueryKey(elements: [.string("m"), .number(JSONNumber(i))]) }

    @Test func holdsEachKeyOnceAndHandsEveryKeyOutOnce() {
        var pending = PendingKeys()
        for i in 0..<10_000 { pending.insert(key(i)) }
        for i in 0..<5_000 { pending.insert(key(i)) }
        #expect(pending.count == 10_000)
        var taken: [QueryKey] = []
        while pending.count > 0 {
            let batch = pending.take(limit: 2_048)
            #expect(batch.count == min(2_048, batch.count + pending.count))
            taken += batch
        }
        #expect(taken.count == 10_000)
        #expect(Set(taken) == Set((0..<10_000).map(key)))
        #expect(pending.take(limit: 10).isEmpty)
        pending.insert(key(1))
        #expect(pending.take(limit: .max) == [key(1)])
        #expect(pending.count == 0)
    }
}
