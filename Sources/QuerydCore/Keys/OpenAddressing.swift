// Sizing and slot arithmetic shared by the open-addressing tables `QueryTable` and `ObjectSet`:
// any capacity (not only powers of two), a maximum load of about 85%, growth by half, and
// shrinking when fewer than an eighth of the slots are used, each change of size migrating a
// bounded number of slots per operation.

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

    /// How many slots of the previous buffer one insertion or removal migrates while a table
    /// changes size. A table grows at 85% load to half as large again, so it can take
    /// 0.85 × 1.5 − 0.85 ≈ 0.43 insertions per old slot before it must grow again; a same-size
    /// rebuild that clears tombstones, 0.21; a shrink leaves 2 × count slots, room for
    /// 0.7 × count insertions while 8 × count old slots drain. A step of 12 or more ends every
    /// migration before the next is due; 32 keeps a step to a few µs.
    static let migrationStep = 32

    /// The size of a freed buffer, in slots, from which the allocator is asked to give free memory
    /// back to the system (about 1 MB of slots: large removals, not everyday churn).
    static let releaseThreshold = 1 << 17

    /// Asks the allocator to return free memory to the system after a table freed a buffer of
    /// `capacity` slots. The buffer itself, allocated by pages, went back already; this returns
    /// the pages of the elements whose removal shrank the table, when they were freed as they went
    /// (after a removal that holds the elements until it ends, the remover should call
    /// `SystemMemory.releaseFreePages` itself).
    static func releaseMemory(afterFreeing capacity: Int) {
        if capacity >= releaseThreshold { SystemMemory.releaseFreePages() }
    }

    /// The home slot of `hash` in `capacity` slots, from its high bits ("fastrange": the high word
    /// of `hash × capacity`), so the capacity need not be a power of two.
    @inline(__always)
    static func slot(_ hash: UInt64, _ capacity: Int) -> Int {
        Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(truncatingIfNeeded: capacity)).high)
    }
}
