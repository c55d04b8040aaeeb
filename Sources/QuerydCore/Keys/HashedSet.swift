// A set of objects found by a key each member carries (its identity, or a trie node's step), in
// one array of references: 8 bytes per slot (about 11 per entry). `QueryIndex` keeps the keys
// ending below each trie node (`ObjectSet`) and each node's children in these.
//
// Open addressing with linear probing from the slot "fastrange" picks from the key's hash. Removal
// shifts later entries of the probe run back (no tombstones), so lookups and insertions never wade
// through dead slots.
//
// The set changes size incrementally, like `QueryTable`: each insertion or removal moves the
// objects of at most `OpenAddressing.migrationStep` slots of the previous buffer (`draining`) to
// the current one, in slot order. The migrated slots below `migrated` are left out of `draining`'s
// probing altogether: its probe ring is the slots `migrated..<capacity`, wrapping from the last
// back to `migrated`, and a home below `migrated` counts as `migrated`. Moving an object out
// therefore never breaks a run of the objects still there and needs no shift.

/// How a `HashedSet` finds its members: each member's key, the key's hash, and key equality.
protocol SetMembership {
    associatedtype Element: AnyObject
    associatedtype Key
    /// The hash of `element`'s key (which must not change while the element is stored): what
    /// `hash(_:)` gives for it, perhaps kept by the element.
    static func hash(of element: Element) -> UInt64
    /// The hash of `key`; equal keys hash alike.
    static func hash(_ key: Key) -> UInt64
    /// Whether `element`'s key equals `key`.
    static func matches(_ element: Element, _ key: Key) -> Bool
    /// Calls `body` with the key `element` is found under.
    static func withKey<R>(of element: Element, _ body: (Key) -> R) -> R
}

/// An unordered set of objects with distinct keys (`Membership`).
struct HashedSet<Membership: SetMembership>: SlotMigrating {
    typealias Element = Membership.Element
    typealias Key = Membership.Key

    /// The slots new objects go to; nil while the set is empty. The rest of the set's state lives
    /// in it too, so a set costs one reference (a trie node holds four sets).
    private(set) var buffer: SlotBuffer<Element>?

    /// While a migration runs, the slots it empties into `buffer`.
    var draining: SlotBuffer<Element>? { buffer?.previous }

    /// The first slot of `draining` still in use (every slot below it has been migrated).
    var migrated: Int { buffer?.migrated ?? 0 }

    /// The number of objects stored (in both buffers).
    var count: Int { (buffer?.count ?? 0) + (draining?.count ?? 0) }

    /// Creates an empty set (it allocates nothing until the first insertion).
    init() {}

    /// Whether the set holds no object.
    var isEmpty: Bool { count == 0 }

    /// The number of slots new objects go to.
    var capacity: Int { buffer?.capacity ?? 0 }

    /// Whether objects are still moving from the previous slots to the current ones.
    var isMigrating: Bool { draining != nil }

    /// The objects still in the previous slots (0 when no migration runs).
    var elementsToMigrate: Int { draining?.count ?? 0 }

    /// Bytes of slot storage (of both buffers while migrating) per stored object; 0 when empty.
    var bytesPerEntry: Double {
        let slots = capacity + (draining?.capacity ?? 0)
        return count == 0 ? 0 : Double(slots * MemoryLayout<Element?>.stride) / Double(count)
    }

    @inline(__always)
    static func hash(_ element: Unmanaged<Element>) -> UInt64 {
        element._withUnsafeGuaranteedRef { Membership.hash(of: $0) }
    }

    /// The first slot of the probe run of a key hashing to `hash`, in a buffer whose ring starts at
    /// `start`.
    @inline(__always)
    static func home(_ hash: UInt64, _ capacity: Int, start: Int) -> Int {
        max(start, OpenAddressing.slot(hash, capacity))
    }

    /// The slot of `buffer` (its ring starting at `start`) holding the member with `key` (hashing
    /// to `hash`), or nil.
    private static func probe(_ key: Key, hash: UInt64, in buffer: SlotBuffer<Element>, start: Int) -> Int? {
        let capacity = buffer.capacity
        var index = home(hash, capacity, start: start)
        // A draining ring may have no free slot left, so the walk stops after one lap.
        for _ in start..<capacity {
            guard let candidate = buffer.references[index] else { return nil }
            if candidate._withUnsafeGuaranteedRef({ Membership.matches($0, key) }) { return index }
            index += 1
            if index == capacity { index = start }
        }
        return nil
    }

    /// Where the member with `key` is: its buffer, the start of that buffer's ring, and its slot.
    private func locate(_ key: Key) -> (buffer: SlotBuffer<Element>, start: Int, slot: Int)? {
        guard count > 0, let buffer else { return nil }
        let hash = Membership.hash(key)
        if let slot = Self.probe(key, hash: hash, in: buffer, start: 0) { return (buffer, 0, slot) }
        guard let draining, let slot = Self.probe(key, hash: hash, in: draining, start: migrated) else { return nil }
        return (draining, migrated, slot)
    }

    /// The member with `key`, if any.
    func member(_ key: Key) -> Element? {
        guard let (buffer, _, slot) = locate(key) else { return nil }
        return buffer.references[slot]?.takeUnretainedValue()
    }

    /// Adds `element`.
    /// - Precondition: no member has `element`'s key (checked in debug builds).
    // Inlined so that its specialisations, which differ little, are not merged into one function
    // that every insertion reaches through an extra call.
    @inline(__always)
    mutating func insertNew(_ element: Element) {
        assert(
            Membership.withKey(of: element) { member($0) } == nil, "HashedSet.insertNew: the key is already there")
        makeUnique()
        buffer?.migrationStep(by: Self.self)
        if (buffer?.count ?? 0) + 1 > OpenAddressing.maximumLoad(capacity) {
            migrate(to: OpenAddressing.grown(capacity))
        }
        Self.place(.passRetained(element), in: buffer.unsafelyUnwrapped)
    }

    /// Puts `element` (its reference owned by the caller, handed to the buffer) in the free slot
    /// ending its probe run in `buffer` (which has a free slot).
    private static func place(_ element: Unmanaged<Element>, in buffer: SlotBuffer<Element>) {
        let capacity = buffer.capacity
        var index = home(hash(element), capacity, start: 0)
        while buffer.references[index] != nil {
            index += 1
            if index == capacity { index = 0 }
        }
        buffer.references[index] = element
        buffer.count += 1
    }

    /// Starts moving every object into a fresh buffer of `newCapacity` slots (or more, to leave
    /// room for one more object) and takes the first step.
    private mutating func migrate(to newCapacity: Int) {
        buffer = SlotBuffer.migration(from: buffer, capacity: newCapacity, count: count, controls: false, by: Self.self)
    }

    /// Moves the objects in `slots` of `source` to `target`. The slots must be out of `source`'s
    /// probe ring (below the `migrated` that follows), since nothing shifts into the holes.
    static func move(from source: SlotBuffer<Element>, slots: Range<Int>, to target: SlotBuffer<Element>) {
        var moved = 0
        for index in slots {
            guard let element = source.references[index] else { continue }
            // The reference moves without a retain: the new slot takes over the old one's.
            source.references[index] = nil
            moved += 1
            place(element, in: target)
        }
        source.count -= moved
    }

    /// Gives this set buffers no other copy shares, before a mutation.
    private mutating func makeUnique() {
        // A buffer's previous one is referenced only by it (`copy` copies both).
        if buffer != nil, !isKnownUniquelyReferenced(&buffer) { buffer = buffer?.copy() }
    }

    /// Removes the member with `key`; false when there is none.
    @discardableResult
    mutating func remove(_ key: Key) -> Bool {
        guard locate(key) != nil else { return false }
        makeUnique()
        buffer?.migrationStep(by: Self.self)
        removeLocated(key)
        if count == 0 {
            let freed = capacity
            self.buffer = nil  // the last references: the slots are freed here
            OpenAddressing.releaseMemory(afterFreeing: freed)
        } else if draining == nil, let newCapacity = OpenAddressing.shrunk(count: count, capacity: capacity) {
            migrate(to: newCapacity)
        }
        return true
    }

    /// Removes the member with `key` from whichever buffer holds it (locating it again: the copy
    /// or the migration step since the caller looked may have moved it).
    private func removeLocated(_ key: Key) {
        guard let (buffer, start, slot) = locate(key) else { preconditionFailure("HashedSet: a member went missing") }
        Self.remove(at: slot, from: buffer, start: start)
    }

    /// Releases and clears slot `found` of `buffer` (its ring starting at `start`) by
    /// backward-shift deletion: walk the rest of the run and move back every entry whose home is
    /// not cyclically within (hole, its slot], so no probe run is broken by the hole.
    private static func remove(at found: Int, from buffer: SlotBuffer<Element>, start: Int) {
        let capacity = buffer.capacity
        let references = buffer.references
        references[found]?.release()
        var hole = found
        var index = found
        while true {
            index += 1
            if index == capacity { index = start }
            // A full ring ends where the walk began.
            guard index != found, let candidate = references[index] else { break }
            let home = home(hash(candidate), capacity, start: start)
            let staysPut = hole <= index ? (hole < home && home <= index) : (hole < home || home <= index)
            if !staysPut {
                references[hole] = candidate
                hole = index
            }
        }
        references[hole] = nil
        buffer.count -= 1
    }

    /// Calls `body` with every object, in unspecified order. `body` must not change the set.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        try forEachUnretained { try body($0.takeUnretainedValue()) }
    }

    /// Calls `body` with every object as the set holds it, unretained (no reference count is
    /// touched, so neither is the object's memory), in unspecified order. `body` must not change
    /// the set.
    func forEachUnretained(_ body: (Unmanaged<Element>) throws -> Void) rethrows {
        if let draining {
            for index in migrated..<draining.capacity {
                if let element = draining.references[index] { try body(element) }
            }
        }
        if let buffer {
            for index in 0..<buffer.capacity {
                if let element = buffer.references[index] { try body(element) }
            }
        }
    }
}
