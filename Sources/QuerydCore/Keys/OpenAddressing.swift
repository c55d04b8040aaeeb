// Sizing and slot arithmetic shared by the open-addressing tables `QueryTable` and `ObjectSet`:
// any capacity (not only powers of two), a maximum load of about 85%, growth by half, and
// shrinking when fewer than an eighth of the slots are used.

/// The growth policy and hash-to-slot mapping of the open-addressing tables.
enum OpenAddressing {
    /// The smallest capacity of a table that holds anything (an empty table has no storage).
    static let minimumCapacity = 2

    /// How many occupied slots (entries plus tombstones) a table of `capacity` slots may hold:
    /// about 85%, always leaving one slot empty so that every probe ends.
    static func maximumLoad(_ capacity: Int) -> Int {
        min(capacity - 1, capacity * 17 / 20)
    }

    /// The capacity a full table grows to: half as large again.
    static func grown(_ capacity: Int) -> Int {
        max(minimumCapacity, capacity + max(1, capacity / 2))
    }

    /// The capacity a table should shrink to after a removal left `count` entries in `capacity`
    /// slots, or nil to keep it (zero releases the storage).
    static func shrunk(count: Int, capacity: Int) -> Int? {
        if count == 0 { return capacity == 0 ? nil : 0 }
        guard count < capacity / 8 else { return nil }
        return max(minimumCapacity, count * 2)
    }

    /// The home slot of `hash` in `capacity` slots, from its high bits ("fastrange": the high word
    /// of `hash × capacity`), so the capacity need not be a power of two.
    @inline(__always)
    static func slot(_ hash: UInt64, _ capacity: Int) -> Int {
        Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(truncatingIfNeeded: capacity)).high)
    }
}
