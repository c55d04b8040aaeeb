// An open-addressing hash table of objects found by the canonical bytes of their keys: the
// exact-lookup half of `QueryIndex`, costing 13 bytes per slot (about 18 per entry).
//
// Each slot has a control byte (empty, tombstone, or the top bit plus 7 bits of the hash), the
// hash's high 32 bits and an optional reference. Probing is linear from the slot "fastrange" picks
// from those 32 bits; a probe compares a key only where the control byte's tag matches, so a miss
// rarely dereferences an object. A migration places an element by its slot's control byte and hash
// word alone: it neither hashes the key again nor reads the element. Hashes are SipHash-1-3 under a
// per-process key (`KeyHash`) over the canonical bytes: clients choose keys, so collisions must
// stay hard to provoke.
//
// The table grows, shrinks and clears its tombstones incrementally, as Redis's dict rehashes: it
// allocates the new slots and then each insertion or removal moves the elements of at most
// `OpenAddressing.migrationStep` old slots, so no single call pays for the whole table. While a
// migration runs an element is in exactly one of the two buffers; a lookup tries the new one first
// and the old one only on a miss, so a hit costs the same as without a migration.

/// A hash table of `Element`s keyed by their keys' canonical bytes. At most one element per key.
public struct QueryTable<Element: QueryIndexElement>: SlotMigrating {
    /// The slots new elements go to; nil while the table is empty. Control bytes: `empty`,
    /// `tombstone`, or `tag(hash)` for an occupied slot.
    private var buffer: SlotBuffer<Element>?
    /// While a migration runs, the slots it empties into `buffer` (`buffer.previous`); its slots
    /// below `buffer.migrated` are all free (tombstones or empty).
    private var draining: SlotBuffer<Element>? { buffer?.previous }
    /// The number of elements stored (in both buffers).
    public private(set) var count = 0
    /// The hash function, with this process's key (kept here: reading a global costs a call).
    private let keyHash = KeyHash.process

    private static var empty: UInt8 { 0 }
    private static var tombstone: UInt8 { 1 }

    /// Creates an empty table (it allocates nothing until the first insertion).
    public init() {}

    /// The number of slots new elements go to.
    public var capacity: Int { buffer?.capacity ?? 0 }

    /// Slots of `buffer` whose element was removed and that still continue probe sequences.
    var tombstones: Int { buffer?.tombstones ?? 0 }

    /// Whether elements are still moving from the previous slots to the current ones.
    var isMigrating: Bool { draining != nil }

    /// The elements still in the previous slots (0 when no migration runs).
    var elementsToMigrate: Int { draining?.count ?? 0 }

    /// Bytes of slot storage (of both buffers while migrating) per stored element; 0 when empty.
    public var bytesPerEntry: Double {
        guard count > 0 else { return 0 }
        let slotSize = MemoryLayout<UInt8>.stride + MemoryLayout<UInt32>.stride + MemoryLayout<Element?>.stride
        return Double((capacity + (draining?.capacity ?? 0)) * slotSize) / Double(count)
    }

    /// What a slot keeps of its element's hash, and what places it: the high 32 bits.
    @inline(__always)
    static func high(_ hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash >> 32)
    }

    /// The home slot, in `capacity` slots, of a hash whose high 32 bits are `high`: "fastrange" over
    /// those bits (`OpenAddressing.slot` of the hash with its low half cleared).
    @inline(__always)
    static func home(_ high: UInt32, _ capacity: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(high) &* UInt64(truncatingIfNeeded: capacity)) >> 32)
    }

    /// The control byte of an occupied slot: the top bit set, the hash's low 7 bits below it (the
    /// slot comes from the high bits, so the two are independent).
    @inline(__always)
    static func tag(_ hash: UInt64) -> UInt8 {
        0x80 | UInt8(truncatingIfNeeded: hash & 0x7F)
    }

    /// Whether two byte strings are equal, compared a word at a time (keys are short: a call to
    /// `memcmp` would cost more than the comparison). The last word overlaps the one before it, so
    /// no byte is compared alone unless there are fewer than four.
    @inline(__always)
    static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        let count = lhs.count
        guard count == rhs.count else { return false }
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                guard
                    lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            return lhs.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == rhs.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return lhs.loadUnaligned(as: UInt32.self) == rhs.loadUnaligned(as: UInt32.self)
                && lhs.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == rhs.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        for offset in 0..<count where lhs[offset] != rhs[offset] { return false }
        return true
    }

    /// The element stored under `key`, if any.
    public subscript(key: QueryKey) -> Element? {
        key.withCanonicalBytes { element(canonicalBytes: $0) }
    }

    /// The element whose key has exactly these canonical bytes, if any.
    public func element(canonicalBytes bytes: UnsafeRawBufferPointer) -> Element? {
        // `buffer` is non-nil whenever the table holds an element.
        guard count > 0 else { return nil }
        return find(bytes, hash: keyHash(bytes))
    }

    /// The element of `buffer` whose key has these canonical bytes (hashing to `hash`), if any,
    /// and, when `notingFree` and there is none, the first free slot the probe passed (where `place`
    /// would put the key; -1 otherwise).
    @inline(__always)
    private static func find(
        _ bytes: UnsafeRawBufferPointer, hash: UInt64, in buffer: SlotBuffer<Element>, notingFree: Bool = false
    ) -> (element: Element?, free: Int) {
        let capacity = buffer.capacity
        let controls = buffer.controls.unsafelyUnwrapped
        let references = buffer.references
        let tag = tag(hash)
        var index = home(high(hash), capacity)
        var free = -1
        // The probe reads references without retaining them; only the one returned is retained.
        while true {
            let control = controls[index]
            if control == tag, let candidate = references[index],
                candidate._withUnsafeGuaranteedRef({ $0.key.withCanonicalBytes { equal($0, bytes) } })
            {
                return (candidate.takeUnretainedValue(), -1)
            }
            if control < 0x80 {
                if notingFree, free < 0 { free = index }
                if control == empty { return (nil, free) }
            }
            index += 1
            if index == capacity { index = 0 }
        }
    }

    /// Adds `element`.
    /// - Precondition: no stored element has a key equal to `element.key` (checked in debug builds).
    public mutating func insert(_ element: Element) {
        let hash = element.key.withCanonicalBytes { bytes in
            assert(self.element(canonicalBytes: bytes) == nil, "QueryTable.insert: the key is already stored")
            return keyHash(bytes)
        }
        insert(element, hash: hash)
    }

    /// The element stored under `key`, or, when there is none, the one `make` returns (its key
    /// equal to `key`), added; `added` tells which. The key is hashed once for both, and outside
    /// migrations its probe is walked once for both.
    mutating func element(for key: QueryKey, orAdding make: () -> Element) -> (element: Element, added: Bool) {
        let (found, hash, free) = key.withCanonicalBytes { bytes -> (Element?, UInt64, Int) in
            let hash = keyHash(bytes)
            guard count > 0 else { return (nil, hash, -1) }
            let inBuffer = Self.find(bytes, hash: hash, in: buffer.unsafelyUnwrapped, notingFree: true)
            guard inBuffer.element == nil, let draining else { return (inBuffer.element, hash, inBuffer.free) }
            return (Self.find(bytes, hash: hash, in: draining).element, hash, -1)
        }
        if let found { return (found, false) }
        let made = make()
        assert(made.key == key, "QueryTable.element(for:orAdding:): the new element has another key")
        insert(made, hash: hash, free: free)
        return (made, true)
    }

    /// The element of either buffer whose key has these canonical bytes (hashing to `hash`), if any;
    /// the table is not empty.
    private func find(_ bytes: UnsafeRawBufferPointer, hash: UInt64) -> Element? {
        if let found = Self.find(bytes, hash: hash, in: buffer.unsafelyUnwrapped).element { return found }
        guard let draining else { return nil }
        return Self.find(bytes, hash: hash, in: draining).element
    }

    /// Adds `element`, whose key hashes to `hash` and is not stored. `free`, when not -1, is the
    /// slot of `buffer` a probe for the key found first free while no migration ran.
    private mutating func insert(_ element: Element, hash: UInt64, free: Int = -1) {
        makeUnique()  // a copy has the same slots
        if free >= 0, hasRoomForOneMore {
            // No migration runs (none moves elements into the slot) and no growth is due.
            Self.place(
                .passRetained(element), high: Self.high(hash), tag: Self.tag(hash), at: free,
                in: buffer.unsafelyUnwrapped)
            count += 1
            return
        }
        buffer?.migrationStep(by: Self.self)
        if !hasRoomForOneMore {
            // Grow when live elements fill the table; when tombstones do, a fresh buffer of the same
            // size clears them and leaves at least a fifth of the slots free.
            let limit = OpenAddressing.maximumLoad(capacity)
            migrate(to: count + 1 > limit * 3 / 4 ? OpenAddressing.grown(capacity) : capacity)
        }
        Self.place(.passRetained(element), high: Self.high(hash), tag: Self.tag(hash), in: buffer.unsafelyUnwrapped)
        count += 1
    }

    /// Whether `buffer` can take one more element within its maximum load (counting tombstones).
    private var hasRoomForOneMore: Bool {
        guard let buffer else { return false }
        return buffer.count + buffer.tombstones + 1 <= OpenAddressing.maximumLoad(buffer.capacity)
    }

    /// Puts `element` (its reference owned by the caller, handed to the buffer), whose hash has
    /// these high bits and tag, in the first free slot (empty or tombstone) of its probe sequence.
    @inline(__always)
    private static func place(_ element: Unmanaged<Element>, high: UInt32, tag: UInt8, in buffer: SlotBuffer<Element>) {
        let capacity = buffer.capacity
        let controls = buffer.controls.unsafelyUnwrapped
        var index = home(high, capacity)
        while controls[index] >= 0x80 {
            index += 1
            if index == capacity { index = 0 }
        }
        place(element, high: high, tag: tag, at: index, in: buffer)
    }

    /// Puts `element` (its reference owned by the caller, handed to the buffer) in free slot `index`.
    @inline(__always)
    private static func place(
        _ element: Unmanaged<Element>, high: UInt32, tag: UInt8, at index: Int, in buffer: SlotBuffer<Element>
    ) {
        let controls = buffer.controls.unsafelyUnwrapped
        if controls[index] == tombstone { buffer.tombstones -= 1 }
        controls[index] = tag
        buffer.hashes[index] = high
        buffer.references[index] = element
        buffer.count += 1
    }

    /// Starts moving every element into a fresh buffer of `newCapacity` slots (or more, to leave
    /// room for one more element) and takes the first step.
    private mutating func migrate(to newCapacity: Int) {
        buffer = SlotBuffer.migration(from: buffer, capacity: newCapacity, count: count, controls: true, by: Self.self)
    }

    /// Moves the elements in `slots` of `source` to `target`, leaving tombstones. Each goes by its
    /// slot's tag and hash word: no key is hashed and no element read.
    static func move(from source: SlotBuffer<Element>, slots: Range<Int>, to target: SlotBuffer<Element>) {
        let controls = source.controls.unsafelyUnwrapped
        let hashes = source.hashes
        var moved = 0
        for index in slots where controls[index] >= 0x80 {
            guard let element = source.references[index] else { continue }
            // The reference moves without a retain: the new slot takes over the old one's.
            let tag = controls[index]
            controls[index] = tombstone
            source.references[index] = nil
            moved += 1
            place(element, high: hashes[index], tag: tag, in: target)
        }
        source.count -= moved
        source.tombstones += moved
    }

    /// Gives this table buffers no other copy shares, before a mutation.
    private mutating func makeUnique() {
        // A buffer's previous one is referenced only by it (`copy` copies both).
        if buffer != nil, !isKnownUniquelyReferenced(&buffer) { buffer = buffer?.copy() }
    }

    /// Removes `element` (this exact object). Returns false, removing nothing, when it is not stored.
    @discardableResult
    public mutating func remove(_ element: Element) -> Bool {
        guard count > 0 else { return false }
        makeUnique()
        let hash = element.key.withCanonicalBytes { keyHash($0) }
        buffer?.migrationStep(by: Self.self)
        guard removeStored(element, hash: hash) else { return false }
        count -= 1
        if count == 0 {
            let freed = capacity
            buffer = nil  // the last references: the slots are freed here
            OpenAddressing.releaseMemory(afterFreeing: freed)
        } else if draining == nil, let newCapacity = OpenAddressing.shrunk(count: count, capacity: capacity) {
            migrate(to: newCapacity)
        }
        return true
    }

    /// Removes `element` from whichever buffer holds it.
    private func removeStored(_ element: Element, hash: UInt64) -> Bool {
        guard let buffer else { return false }
        if Self.remove(element, hash: hash, from: buffer) { return true }
        guard let draining else { return false }
        return Self.remove(element, hash: hash, from: draining)
    }

    /// Removes `element` from `buffer` if it is there.
    private static func remove(_ element: Element, hash: UInt64, from buffer: SlotBuffer<Element>) -> Bool {
        let capacity = buffer.capacity
        let controls = buffer.controls.unsafelyUnwrapped
        let references = buffer.references
        let tag = tag(hash)
        let target = Unmanaged.passUnretained(element).toOpaque()
        var index = home(high(hash), capacity)
        while true {
            let control = controls[index]
            if control == empty { return false }
            if control == tag, references[index]?.toOpaque() == target { break }
            index += 1
            if index == capacity { index = 0 }
        }
        references[index]?.release()
        references[index] = nil
        buffer.count -= 1
        let next = index + 1 == capacity ? 0 : index + 1
        if controls[next] == empty {
            // Nothing probes past an empty slot, so this slot and the tombstones just before it
            // end no sequence any more: they become empty.
            controls[index] = empty
            var previous = index == 0 ? capacity - 1 : index - 1
            while controls[previous] == tombstone {
                controls[previous] = empty
                buffer.tombstones -= 1
                previous = previous == 0 ? capacity - 1 : previous - 1
            }
        } else {
            controls[index] = tombstone
            buffer.tombstones += 1
        }
        return true
    }

    /// Calls `body` with every stored element, in unspecified order. `body` must not change the
    /// table.
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        try forEachUnretained { try body($0.takeUnretainedValue()) }
    }

    /// Calls `body` with every stored element as the table holds it, unretained (no reference
    /// count, and so no element's memory, is touched), in unspecified order. `body` must not
    /// change the table.
    func forEachUnretained(_ body: (Unmanaged<Element>) throws -> Void) rethrows {
        if let draining { try Self.forEach(in: draining, body) }
        if let buffer { try Self.forEach(in: buffer, body) }
    }

    private static func forEach(in buffer: SlotBuffer<Element>, _ body: (Unmanaged<Element>) throws -> Void)
        rethrows
    {
        let controls = buffer.controls.unsafelyUnwrapped
        for index in 0..<buffer.capacity where controls[index] >= 0x80 {
            if let element = buffer.references[index] { try body(element) }
        }
    }
}
