// The keys waiting for the write-behind's next batch, as a set that never grows in one long step.
//
// A Swift `Set` doubles by rehashing every key at once: while a fill marks 100,000 keys, the
// doubling from 65,536 to 131,072 slots took 12 ms of the loop (perf, BENCHMARKS §11). The keys are
// kept in a `ShardedSet`, split by hash over 64 tables, so each doubling rehashes about a 64th of
// them.

import QuerydCore

/// The set of query keys the write-behind has yet to write.
struct PendingKeys {
    private var keys = ShardedSet<QueryKey>()

    /// The number of keys held.
    var count: Int { keys.count }

    /// Adds `key` (once).
    mutating func insert(_ key: QueryKey) {
        keys.insert(key)
    }

    /// Removes and returns up to `limit` keys, in no particular order.
    mutating func take(limit: Int) -> [QueryKey] {
        let taken = Array(keys.prefix(limit))
        for key in taken { keys.remove(key) }
        return taken
    }
}
