// Walking a `HashedSet` in bounded steps while it changes between them: in the order of the
// members' hashes, a window of hashes at a time.
//
// A member's home slot is the high word of `hash × capacity` ("fastrange", `OpenAddressing.slot`),
// which never decreases as the hash grows, in any buffer of any capacity. So a position in hash
// order ("every member hashing below `lower` has been visited") means the same in the current
// buffer, in a draining one, and in every buffer a later migration makes; members that move between
// buffers, or back along a probe run when another is removed, keep their hash. A walk that hands
// out each window's members once therefore visits every member present throughout exactly once,
// however the set grows, shrinks or migrates between windows (Redis's SCAN gets the same from a
// reverse-binary cursor over power-of-two tables, but may repeat members after a resize; this
// order never does). Members added during the walk are visited when they hash at or beyond the
// position, and members removed before the walk reaches them are not.

extension HashedSet {
    /// Calls `body` with every member whose hash lies in one window starting at `lower`, unretained
    /// and in no particular order; the window spans about `slots` slots of the
    /// larger buffer. Returns where the window ends (the next call's `lower`; nil when it reached
    /// the end of the hash order) and how many slots it examined. `body` must not change the set.
    func visitWindow(
        from lower: UInt64, slots: Int, _ body: (Unmanaged<Element>) -> Void
    ) -> (upper: UInt64?, examined: Int) {
        guard let buffer else { return (nil, 0) }
        var widest = buffer
        if let draining, draining.capacity > widest.capacity { widest = draining }
        let capacity = widest.capacity
        let last = min(capacity - 1, OpenAddressing.slot(lower, capacity) + max(1, slots) - 1)
        let upper = last == capacity - 1 ? nil : Self.firstHash(ofSlot: last + 1, capacity)
        var examined = Self.scan(buffer, start: 0, lower: lower, upper: upper, body)
        if let draining { examined += Self.scan(draining, start: migrated, lower: lower, upper: upper, body) }
        return (upper, examined)
    }

    /// The smallest hash whose slot in `capacity` slots is `slot` or later (`0 < slot < capacity`):
    /// ⌈slot × 2⁶⁴ / capacity⌉.
    static func firstHash(ofSlot slot: Int, _ capacity: Int) -> UInt64 {
        let (quotient, remainder) = UInt64(capacity).dividingFullWidth((high: UInt64(slot), low: 0))
        return remainder == 0 ? quotient : quotient + 1
    }

    /// Hands `body` the members of `buffer` (its probe ring starting at `start`) hashing in
    /// `lower..<upper` (nil: no upper bound); returns the slots examined.
    ///
    /// Such a member's home is between the homes of `lower` and of the last hash below `upper`, and
    /// it sits in the probe run from its home up to the first free slot after it. So the scan runs
    /// from the first home to the first free slot at or after the last home, and, when it reaches
    /// the end of the buffer first, on from the start of the ring (where runs wrap) to the first
    /// free slot there; it stops early when it comes round to where it began (a draining ring may
    /// have no free slot).
    private static func scan(
        _ buffer: SlotBuffer<Element>, start: Int, lower: UInt64, upper: UInt64?,
        _ body: (Unmanaged<Element>) -> Void
    ) -> Int {
        let capacity = buffer.capacity
        guard start < capacity, buffer.count > 0 else { return 0 }
        let first = home(lower, capacity, start: start)
        let lastHome = upper.map { home($0 - 1, capacity, start: start) } ?? capacity - 1
        var index = first
        var wrapped = false
        var examined = 0
        while true {
            examined += 1
            if let member = buffer.references[index] {
                let memberHash = hash(member)
                if memberHash >= lower, upper.map({ memberHash < $0 }) ?? true { body(member) }
            } else if wrapped || index >= lastHome {
                break
            }
            index += 1
            if index == capacity {
                index = start
                wrapped = true
            }
            if wrapped, index == first { break }
        }
        return examined
    }
}
