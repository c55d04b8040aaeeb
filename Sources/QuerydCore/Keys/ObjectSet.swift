// A set of objects by identity, in one array of references: 8 bytes per slot (about 11 per
// entry). `QueryIndex` keeps the keys ending below each trie node in these.
//
// Open addressing with linear probing from the slot "fastrange" picks from the object's address
// times an odd constant. Removal shifts later entries of the probe run back (no tombstones), so
// lookups and insertions never wade through dead slots.

/// An unordered set of distinct objects, compared by identity (`===`).
struct ObjectSet<Element: AnyObject> {
    /// The object in each occupied slot; nil in free ones.
    private var slots: [Element?] = []
    /// The number of objects stored.
    private(set) var count = 0

    /// Creates an empty set (it allocates nothing until the first insertion).
    init() {}

    /// Whether the set holds no object.
    var isEmpty: Bool { count == 0 }

    /// The number of slots.
    var capacity: Int { slots.count }

    /// Bytes of slot storage per stored object (capacity × 8 / count); 0 when empty.
    var bytesPerEntry: Double {
        count == 0 ? 0 : Double(capacity * MemoryLayout<Element?>.stride) / Double(count)
    }

    @inline(__always)
    private static func hash(_ element: Element) -> UInt64 {
        UInt64(UInt(bitPattern: ObjectIdentifier(element))) &* 0x9E37_79B9_7F4A_7C15
    }

    @inline(__always)
    private func home(_ element: Element) -> Int {
        OpenAddressing.slot(Self.hash(element), slots.count)
    }

    /// The slot holding `element`, or the free slot ending its probe run.
    private func probe(_ element: Element) -> (index: Int, found: Bool) {
        let capacity = slots.count
        var index = home(element)
        while let candidate = slots[index] {
            if candidate === element { return (index, true) }
            index += 1
            if index == capacity { index = 0 }
        }
        return (index, false)
    }

    /// Whether `element` (this exact object) is in the set.
    func contains(_ element: Element) -> Bool {
        count > 0 && probe(element).found
    }

    /// Adds `element`; false when it was already there.
    @discardableResult
    mutating func insert(_ element: Element) -> Bool {
        if count > 0 {
            let (index, found) = probe(element)
            if found { return false }
            if count + 1 <= OpenAddressing.maximumLoad(slots.count) {
                slots[index] = element
                count += 1
                return true
            }
        }
        rehash(capacity: OpenAddressing.grown(slots.count))
        slots[probe(element).index] = element
        count += 1
        return true
    }

    /// Removes `element`; false when it was not there.
    @discardableResult
    mutating func remove(_ element: Element) -> Bool {
        guard count > 0 else { return false }
        let (found, present) = probe(element)
        guard present else { return false }
        // Backward-shift deletion: walk the rest of the run and move back every entry whose home
        // is not cyclically within (hole, its slot], so no probe run is broken by the hole.
        let capacity = slots.count
        var hole = found
        var index = found
        while true {
            index += 1
            if index == capacity { index = 0 }
            guard let candidate = slots[index] else { break }
            let home = home(candidate)
            let staysPut = hole <= index ? (hole < home && home <= index) : (hole < home || home <= index)
            if !staysPut {
                slots[hole] = candidate
                hole = index
            }
        }
        slots[hole] = nil
        count -= 1
        if let newCapacity = OpenAddressing.shrunk(count: count, capacity: capacity) {
            rehash(capacity: newCapacity)
        }
        return true
    }

    /// Moves every object into fresh storage of `newCapacity` slots (none when zero).
    private mutating func rehash(capacity newCapacity: Int) {
        let old = slots
        slots = [Element?](repeating: nil, count: newCapacity)
        for case let element? in old {
            slots[probe(element).index] = element
        }
    }

    /// Calls `body` with every object, in unspecified order.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for case let element? in slots { try body(element) }
    }
}
