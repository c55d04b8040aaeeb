// The slot memory of one open-addressing table (`QueryTable`, `ObjectSet`): a reference per slot
// and, for `QueryTable`, a control byte per slot, both from `calloc`.
//
// Why not arrays: a growing table allocates its next storage while the old one still holds the
// elements, and frees the old one once they have moved (incrementally, see `QueryTable`). An array
// writes every slot when it is made and visits every slot when it is freed (to release its
// references): at millions of slots that is tens of milliseconds in one go. `calloc` of a large
// block hands out fresh zeroed pages from the kernel that are touched only as slots are used, and a
// buffer whose slots are all empty frees without a visit.

#if canImport(Glibc)
    import Glibc
#endif

/// Zero-filled slots: `references[i]` is nil or a reference the buffer owns (retained once);
/// `controls`, when allocated, holds one byte per slot for the owner's use (0 = empty).
///
/// Invariant kept by the owning table: `count` is the number of non-nil references; a reference is
/// stored with `Unmanaged.passRetained` and either released when removed or moved, unretained, to
/// another buffer whose slot takes over the ownership.
final class SlotBuffer<Element: AnyObject> {
    /// The number of slots.
    let capacity: Int
    /// One reference per slot, nil in free ones.
    let references: UnsafeMutablePointer<Unmanaged<Element>?>
    /// One control byte per slot, if the owner asked for them.
    let controls: UnsafeMutablePointer<UInt8>?
    /// Non-nil references.
    var count = 0
    /// Slots whose control byte marks a removed element (kept by owners that use tombstones).
    var tombstones = 0
    /// While `HashedSet` migrates into this buffer: the buffer it empties (referenced only from
    /// here), and how many of that buffer's slots it has emptied so far.
    var previous: SlotBuffer?
    var migrated = 0

    /// Zeroed storage of `capacity` slots (at least one).
    init(capacity: Int, controls withControls: Bool) {
        precondition(capacity > 0, "SlotBuffer: no slots")
        self.capacity = capacity
        // Zero bits are nil for `Unmanaged<Element>?` (a nullable pointer) and `empty` for controls.
        self.references = Self.zeroed(capacity, MemoryLayout<Unmanaged<Element>?>.stride)
            .bindMemory(to: Unmanaged<Element>?.self, capacity: capacity)
        self.controls = withControls ? Self.zeroed(capacity, 1).bindMemory(to: UInt8.self, capacity: capacity) : nil
    }

    private static func zeroed(_ count: Int, _ size: Int) -> UnsafeMutableRawPointer {
        guard let memory = calloc(count, size) else { fatalError("SlotBuffer: out of memory for \(count) slots") }
        return memory
    }

    deinit {
        if count > 0 {
            for index in 0..<capacity { references[index]?.release() }
        }
        free(references)
        free(controls)
    }

    /// A buffer of the same slots holding the same references (each retained once more), with a
    /// copy of its previous buffer.
    func copy() -> SlotBuffer {
        let copy = SlotBuffer(capacity: capacity, controls: controls != nil)
        for index in 0..<capacity {
            copy.references[index] = references[index]?.retain()
        }
        if let controls, let target = copy.controls {
            target.update(from: controls, count: capacity)
        }
        copy.count = count
        copy.tombstones = tombstones
        copy.previous = previous?.copy()
        copy.migrated = migrated
        return copy
    }
}
