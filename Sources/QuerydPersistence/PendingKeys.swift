// The keys waiting for the write-behind's next batch, as a set that never grows in one long step.
//
// A Swift `Set` doubles by rehashing every key at once: while a fill marks 100,000 keys, the
// doubling from 65,536 to 131,072 slots took 12 ms of the loop (perf, BENCHMARKS §11). Split by hash
// into 64 sets, each doubling rehashes about a 64th of the keys, and the shards, filling alike,
// double a few at a time over thousands of insertions.

import QuerydCore

/// A set of query keys split into `shardCount` sets by hash.
struct PendingKeys {
    private static var shardCount: Int { 64 }
    private var shards = [Set<QueryKey>](repeating: [], count: Self.shardCount)

    /// The number of keys held.
    private(set) var count = 0

    /// Adds `key` (once).
    mutating func insert(_ key: QueryKey) {
        if shards[key.hashValue & (Self.shardCount - 1)].insert(key).inserted { count += 1 }
    }

    /// Removes and returns up to `limit` keys, in no particular order.
    mutating func take(limit: Int) -> [QueryKey] {
        var taken: [QueryKey] = []
        taken.reserveCapacity(min(limit, count))
        for index in shards.indices where taken.count < limit && !shards[index].isEmpty {
            let room = limit - taken.count
            if shards[index].count <= room {
                taken.append(contentsOf: shards[index])
                shards[index].removeAll(keepingCapacity: true)
            } else {
                let part = Array(shards[index].prefix(room))
                for key in part { shards[index].remove(key) }
                taken.append(contentsOf: part)
            }
        }
        count -= taken.count
        return taken
    }
}
