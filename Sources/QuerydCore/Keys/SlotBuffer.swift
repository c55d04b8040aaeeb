// The slot memory of one open-addressing table (`QueryTable`, `ObjectSet`): a reference per slot
// and, for `QueryTable`, a control byte and 32 bits of the key's hash per slot, zeroed: from
// `calloc`, or mapped from the kernel when large.
//
// Why not arrays: a growing table allocates its next storage while the old one still holds the
// elements, and frees the old one once they have moved (incrementally, see `QueryTable`). An array
// writes every slot when it is made and visits every slot when it is freed (to release its
// references): at millions of slots that is tens of milliseconds in one go. A fresh mapping is zero
// pages that are touched only as slots are used, a migration gives back the pages of the slots it
// has emptied as it goes, and a buffer whose slots are all empty frees without a visit.

#if canImport(Glibc)
    import Glibc
#endif

/// Zero-filled slots: `references[i]` is nil or a reference the buffer owns (retained once);
/// `controls`, when allocated, holds one byte per slot for the owner's use (0 = empty), followed in
/// the same allocation by one 32-bit word per slot (`hashes`), also the owner's.
///
/// Invariant kept by the owning table: `count` is the number of non-nil references; a reference is
/// stored with `Unmanaged.passRetained` and either released when removed or moved, unretained, to
/// another buffer whose slot takes over the ownership.
final class SlotBuffer<Element: AnyObject> {
    // The counters are 32-bit so that the object takes 56 bytes (a 64-byte block): a trie node's
    // non-empty sets each have one, so their size shows in the memory per query of deep keys.
    private let storedCapacity: Int32
    private var storedCount: Int32 = 0
    private var storedTombstones: Int32 = 0
    private var storedMigrated: Int32 = 0
    /// One reference per slot, nil in free ones.
    let references: UnsafeMutablePointer<Unmanaged<Element>?>
    /// One control byte per slot, if the owner asked for them (then `hashes` follow them).
    let controls: UnsafeMutablePointer<UInt8>?
    /// While a migration fills this buffer: the buffer it empties (referenced only from here).
    var previous: SlotBuffer?

    /// The number of slots.
    var capacity: Int { Int(storedCapacity) }

    /// Non-nil references.
    var count: Int {
        get { Int(storedCount) }
        set { storedCount = Int32(newValue) }
    }

    /// Slots whose control byte marks a removed element (kept by owners that use tombstones).
    var tombstones: Int {
        get { Int(storedTombstones) }
        set { storedTombstones = Int32(newValue) }
    }

    /// How many of `previous`'s slots the migration has emptied.
    var migrated: Int {
        get { Int(storedMigrated) }
        set { storedMigrated = Int32(newValue) }
    }

    /// Zeroed storage of `capacity` slots (at least one).
    init(capacity: Int, controls withControls: Bool) {
        precondition(capacity > 0 && capacity <= Int(Int32.max), "SlotBuffer: \(capacity) slots")
        storedCapacity = Int32(capacity)
        // Zero bits are nil for `Unmanaged<Element>?` (a nullable pointer) and `empty` for controls.
        self.references = Self.zeroed(capacity, MemoryLayout<Unmanaged<Element>?>.stride)
            .bindMemory(to: Unmanaged<Element>?.self, capacity: capacity)
        self.controls =
            withControls
            ? Self.zeroed(Self.controlBytes(capacity), 1).bindMemory(to: UInt8.self, capacity: capacity) : nil
        if let controls {
            UnsafeMutableRawPointer(controls + Self.hashesOffset(capacity)).bindMemory(
                to: UInt32.self, capacity: capacity)
        }
    }

    /// One 32-bit word per slot after the control bytes, when there are control bytes: what
    /// `QueryTable` keeps of each element's hash, so a migration places an element without hashing
    /// its key again (or reading the element at all).
    var hashes: UnsafeMutablePointer<UInt32> {
        let words = UnsafeMutableRawPointer(controls.unsafelyUnwrapped) + Self.hashesOffset(capacity)
        return words.assumingMemoryBound(to: UInt32.self)
    }

    /// Where the hash words start in the control allocation: after the control bytes, aligned.
    @inline(__always)
    private static func hashesOffset(_ capacity: Int) -> Int { (capacity + 7) & ~7 }

    /// The size of the control allocation: the control bytes and the hash words.
    private static func controlBytes(_ capacity: Int) -> Int {
        hashesOffset(capacity) + capacity * MemoryLayout<UInt32>.stride
    }

    /// The size from which slot memory is mapped from the kernel directly rather than taken from
    /// `calloc`: glibc raises its own mapping threshold after freeing a large block (up to 32 MB),
    /// and then serves such a block from its heap and clears it with `memset`, faulting in every
    /// page in one step (20 ms for the table a gc shrinks to, measured). A fresh mapping is zero
    /// pages that are touched only as slots are used.
    private static var mappedBytes: Int { 1 << 18 }

    private static func zeroed(_ count: Int, _ size: Int) -> UnsafeMutableRawPointer {
        #if canImport(Glibc)
            if count * size >= mappedBytes {
                let memory = mmap(nil, count * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                guard let memory, memory != UnsafeMutableRawPointer(bitPattern: -1) else {
                    fatalError("SlotBuffer: out of memory for \(count) slots")
                }
                return memory
            }
        #endif
        guard let memory = calloc(count, size) else { fatalError("SlotBuffer: out of memory for \(count) slots") }
        return memory
    }

    /// Gives back memory `zeroed(count, size)` returned.
    private static func release(_ memory: UnsafeMutableRawPointer, _ count: Int, _ size: Int) {
        #if canImport(Glibc)
            if count * size >= mappedBytes {
                munmap(memory, count * size)
                return
            }
        #endif
        free(memory)
    }

    deinit {
        if count > 0 {
            for index in 0..<capacity { references[index]?.release() }
        }
        Self.release(UnsafeMutableRawPointer(references), capacity, MemoryLayout<Unmanaged<Element>?>.stride)
        if let controls { Self.release(UnsafeMutableRawPointer(controls), Self.controlBytes(capacity), 1) }
    }

    /// A buffer of the same slots holding the same references (each retained once more), with a
    /// copy of its previous buffer.
    func copy() -> SlotBuffer {
        let copy = SlotBuffer(capacity: capacity, controls: controls != nil)
        for index in 0..<capacity {
            copy.references[index] = references[index]?.retain()
        }
        if let controls, let target = copy.controls {
            UnsafeMutableRawPointer(target).copyMemory(from: controls, byteCount: Self.controlBytes(capacity))
        }
        copy.count = count
        copy.tombstones = tombstones
        copy.previous = previous?.copy()
        copy.migrated = migrated
        return copy
    }
}

/// A table whose elements can move between its buffers (each table's own placement rules).
protocol SlotMigrating {
    associatedtype Element: AnyObject
    /// Moves the elements in `slots` of `source` to `target`.
    static func move(from source: SlotBuffer<Element>, slots: Range<Int>, to target: SlotBuffer<Element>)
}

extension SlotBuffer {
    /// A fresh buffer of `capacity` slots (or more, to leave room for `count + 1` elements) that
    /// will take over `current`'s elements a step at a time, the first step taken. What is left of
    /// a migration still under way moves at once (only when elements arrive faster than
    /// `OpenAddressing.migrationStep` allows for, which its arithmetic rules out).
    static func migration<Table: SlotMigrating>(
        from current: SlotBuffer?, capacity: Int, count: Int, controls: Bool, by table: Table.Type
    ) -> SlotBuffer where Table.Element == Element {
        var capacity = capacity
        while OpenAddressing.maximumLoad(capacity) < count + 1 { capacity = OpenAddressing.grown(capacity) }
        let fresh = SlotBuffer(capacity: capacity, controls: controls)
        guard let current else { return fresh }
        if let previous = current.previous {
            Table.move(from: previous, slots: current.migrated..<previous.capacity, to: fresh)
            current.previous = nil
        }
        if current.count > 0 {
            fresh.previous = current
            fresh.migrationStep(by: table)
        }
        return fresh
    }

    /// Moves the elements of the next `OpenAddressing.migrationStep` slots of `previous` here,
    /// ending the migration when none is left there; when that migration shrank the table, asks
    /// the allocator to give memory back to the system.
    func migrationStep<Table: SlotMigrating>(by table: Table.Type) where Table.Element == Element {
        let freed = moveNextSlots(by: table)
        if freed > capacity { OpenAddressing.releaseMemory(afterFreeing: freed) }
    }

    /// The moving part of `migrationStep`: the capacity of the buffer it freed (0 while the
    /// migration runs), freed by the time this returns.
    private func moveNextSlots<Table: SlotMigrating>(by table: Table.Type) -> Int where Table.Element == Element {
        guard let previous else { return 0 }
        let end = min(migrated + OpenAddressing.migrationStep, previous.capacity)
        Table.move(from: previous, slots: migrated..<end, to: self)
        previous.releaseReferencePages(passing: migrated..<end)
        migrated = end
        guard previous.count == 0 else { return 0 }
        self.previous = nil
        migrated = 0
        return previous.capacity
    }
}

extension SlotBuffer {
    /// The span of reference memory given back at a time while a migration passes it (16 pages of
    /// 4 KB; a multiple of every page size Linux uses on its common targets, up to 64 KB).
    static var releaseChunk: Int { 1 << 16 }

    /// Gives the system back the pages of references (and of hash words, where there are any)
    /// that a migration step from `slots.lowerBound` to `slots.upperBound` passed, in whole
    /// `releaseChunk`s: each chunk once, when the step crosses its end. A drained buffer of millions
    /// of slots then holds few resident pages when it is freed, so freeing it (an `munmap` whose
    /// cost follows its resident pages) is no longer a step of tens of milliseconds, and its memory
    /// goes back as the migration runs.
    ///
    /// Invariant making this safe: the passed slots are nil (moved out) and never read as more
    /// than that again: `HashedSet` leaves them out of the draining buffer's probe ring, and
    /// `QueryTable` reads a reference or a hash word only where the control byte is a tag (the
    /// passed slots are tombstones; the control bytes stay, as probes walk through them).
    /// `MADV_DONTNEED` makes the pages read back as zeros, which is nil: the buffer stays what it
    /// was. Only whole chunks inside the buffer's own memory are released, never the allocator's
    /// bookkeeping around it.
    func releaseReferencePages(passing slots: Range<Int>) {
        Self.releasePages(of: UnsafeMutableRawPointer(references), MemoryLayout<Unmanaged<Element>?>.stride, slots)
        if controls != nil {
            Self.releasePages(of: UnsafeMutableRawPointer(hashes), MemoryLayout<UInt32>.stride, slots)
        }
    }

    /// Releases the whole `releaseChunk`s of an array of `stride`-byte slots at `array` that lie
    /// between `slots.lowerBound` and the chunk `slots.upperBound` is in.
    private static func releasePages(of array: UnsafeMutableRawPointer, _ stride: Int, _ slots: Range<Int>) {
        #if canImport(Glibc)
            let base = UInt(bitPattern: array)
            let chunk = UInt(releaseChunk)
            let from = (base + UInt(slots.lowerBound * stride)) & ~(chunk - 1)
            let to = (base + UInt(slots.upperBound * stride)) & ~(chunk - 1)
            let start = max(from, (base + chunk - 1) & ~(chunk - 1))
            guard to > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(address, Int(to - start), Int32(MADV_DONTNEED))
        #endif
    }
}
