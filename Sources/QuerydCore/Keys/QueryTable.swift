// An open-addressing hash table of objects found by the canonical bytes of their keys: the
// exact-lookup half of `QueryIndex`, costing 9 bytes per slot (about 13 per entry).
//
// Each slot has a control byte (empty, tombstone, or the top bit plus 7 bits of the hash) and an
// optional reference. Probing is linear from the slot "fastrange" picks from the hash's high bits;
// a probe compares a key only where the control byte's tag matches, so a miss rarely dereferences
// an object. Hashes are seeded SipHash (`Hasher`) over the canonical bytes: clients choose keys,
// so collisions must stay hard to provoke.

/// A hash table of `Element`s keyed by their keys' canonical bytes. At most one element per key.
public struct QueryTable<Element: QueryIndexElement> {
    /// One byte per slot: `empty`, `tombstone`, or `tag(hash)` for an occupied slot.
    private var controls: [UInt8] = []
    /// The element in each occupied slot; nil elsewhere.
    private var slots: [Element?] = []
    /// The number of elements stored.
    public private(set) var count = 0
    /// Slots whose element was removed and that still continue probe sequences.
    private(set) var tombstones = 0

    private static var empty: UInt8 { 0 }
    private static var tombstone: UInt8 { 1 }

    /// Creates an empty table (it allocates nothing until the first insertion).
    public init() {}

    /// The number of slots.
    public var capacity: Int { slots.count }

    /// Bytes of slot storage per stored element (capacity × (1 + 8) / count); 0 when empty.
    public var bytesPerEntry: Double {
        guard count > 0 else { return 0 }
        let slotSize = MemoryLayout<UInt8>.stride + MemoryLayout<Element?>.stride
        return Double(capacity * slotSize) / Double(count)
    }

    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    /// The control byte of an occupied slot: the top bit set, the hash's low 7 bits below it (the
    /// slot comes from the high bits, so the two are independent).
    @inline(__always)
    static func tag(_ hash: UInt64) -> UInt8 {
        0x80 | UInt8(truncatingIfNeeded: hash & 0x7F)
    }

    /// Whether two byte strings are equal, compared a word at a time (keys are short: a call to
    /// `memcmp` would cost more than the comparison).
    @inline(__always)
    private static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        let count = lhs.count
        guard count == rhs.count else { return false }
        var offset = 0
        while offset + 8 <= count {
            let left = lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard left == rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < count {
            guard lhs[offset] == rhs[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// The element stored under `key`, if any.
    public subscript(key: QueryKey) -> Element? {
        key.withCanonicalBytes { element(canonicalBytes: $0) }
    }

    /// The element whose key has exactly these canonical bytes, if any.
    public func element(canonicalBytes bytes: UnsafeRawBufferPointer) -> Element? {
        guard count > 0 else { return nil }
        let capacity = slots.count
        let hash = Self.hash(bytes)
        let tag = Self.tag(hash)
        var index = OpenAddressing.slot(hash, capacity)
        return controls.withUnsafeBufferPointer { controls in
            // The probe reads references without retaining them (`Element?` and `Unmanaged<Element>?`
            // are both one nullable pointer); only the one returned is retained.
            slots.withUnsafeBufferPointer { slots in
                slots.withMemoryRebound(to: Unmanaged<Element>?.self) { references in
                    while true {
                        let control = controls[index]
                        if control == tag, let candidate = references[index],
                            candidate._withUnsafeGuaranteedRef({
                                $0.key.withCanonicalBytes { Self.equal($0, bytes) }
                            })
                        {
                            return candidate.takeUnretainedValue()
                        }
                        if control == Self.empty { return nil }
                        index += 1
                        if index == capacity { index = 0 }
                    }
                }
            }
        }
    }

    /// Adds `element`.
    /// - Precondition: no stored element has a key equal to `element.key` (checked in debug builds).
    public mutating func insert(_ element: Element) {
        element.key.withCanonicalBytes { bytes in
            assert(self.element(canonicalBytes: bytes) == nil, "QueryTable.insert: the key is already stored")
            if count + tombstones + 1 > OpenAddressing.maximumLoad(capacity) {
                // Grow when live elements fill the table; when tombstones do, rebuilding in place
                // clears them and leaves at least a fifth of the slots free.
                let limit = OpenAddressing.maximumLoad(capacity)
                rehash(capacity: count + 1 > limit * 3 / 4 ? OpenAddressing.grown(capacity) : capacity)
            }
            place(element, hash: Self.hash(bytes))
        }
    }

    /// Puts `element` in the first free slot (empty or tombstone) of its probe sequence.
    private mutating func place(_ element: Element, hash: UInt64) {
        let capacity = slots.count
        var index = OpenAddressing.slot(hash, capacity)
        while controls[index] >= 0x80 {
            index += 1
            if index == capacity { index = 0 }
        }
        if controls[index] == Self.tombstone { tombstones -= 1 }
        controls[index] = Self.tag(hash)
        slots[index] = element
        count += 1
    }

    /// Moves every element into fresh storage of `newCapacity` slots (none when zero), dropping
    /// tombstones.
    private mutating func rehash(capacity newCapacity: Int) {
        let old = slots
        let oldControls = controls
        controls = [UInt8](repeating: Self.empty, count: newCapacity)
        slots = [Element?](repeating: nil, count: newCapacity)
        count = 0
        tombstones = 0
        for index in old.indices where oldControls[index] >= 0x80 {
            let element = old[index]!
            place(element, hash: element.key.withCanonicalBytes { Self.hash($0) })
        }
    }

    /// Removes `element` (this exact object). Returns false, changing nothing, when it is not stored.
    @discardableResult
    public mutating func remove(_ element: Element) -> Bool {
        guard count > 0 else { return false }
        let capacity = slots.count
        let hash = element.key.withCanonicalBytes { Self.hash($0) }
        let tag = Self.tag(hash)
        var index = OpenAddressing.slot(hash, capacity)
        while true {
            let control = controls[index]
            if control == Self.empty { return false }
            if control == tag, slots[index] === element { break }
            index += 1
            if index == capacity { index = 0 }
        }
        slots[index] = nil
        count -= 1
        let next = index + 1 == capacity ? 0 : index + 1
        if controls[next] == Self.empty {
            // Nothing probes past an empty slot, so this slot and the tombstones just before it
            // end no sequence any more: they become empty.
            controls[index] = Self.empty
            var previous = index == 0 ? capacity - 1 : index - 1
            while controls[previous] == Self.tombstone {
                controls[previous] = Self.empty
                tombstones -= 1
                previous = previous == 0 ? capacity - 1 : previous - 1
            }
        } else {
            controls[index] = Self.tombstone
            tombstones += 1
        }
        if let newCapacity = OpenAddressing.shrunk(count: count, capacity: capacity) {
            rehash(capacity: newCapacity)
        }
        return true
    }

    /// Calls `body` with every stored element, in unspecified order.
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        for index in controls.indices where controls[index] >= 0x80 {
            try body(slots[index]!)
        }
    }
}
