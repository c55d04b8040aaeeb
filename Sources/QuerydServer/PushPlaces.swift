// Where each subscription's pending `query.changed` push sits in a session's outbox. Looked up once
// per push and emptied after every flush, so it is a small open-addressing table of integer keys
// rather than a `Dictionary`: subscription ids are handed out in sequence, so a multiplicative hash
// spreads them without hashing them through SipHash, and emptying it only moves a generation on.

/// The place of every pending query push of one outbox, by subscription id.
struct PushPlaces {
    /// A push's place: its index in the outbox's entries, or in its held pushes when `held`.
    struct Place: Equatable {
        var held: Bool
        var index: Int
    }

    private struct Slot {
        var key = 0
        /// `index << 1 | held`, or -1 where a dropped push's place was (the key stays: its slot is
        /// reused when the subscription pushes again, and lookups of other keys probe past it).
        var place = -1
        /// The slot is in use when this equals the table's generation.
        var stamp: UInt32 = 0
    }

    private var slots: [Slot] = []
    /// log2 of `slots.count` (0 while there are no slots).
    private var bits = 0
    /// Slots in use, dropped places included.
    private var used = 0
    private var generation: UInt32 = 1

    /// Whether no slot is in use (no pending push, and none dropped since the last `removeAll`).
    var isEmpty: Bool { used == 0 }

    /// The place of `key`'s pending push; when it has none, records `fresh` as its place and
    /// returns nil.
    mutating func place(of key: Int, recordingIfNone fresh: Place) -> Place? {
        if (used + 1) * 2 > slots.count { grow() }
        var index = home(of: key)
        let mask = slots.count - 1
        while slots[index].stamp == generation {
            if slots[index].key == key {
                let packed = slots[index].place
                if packed >= 0 { return PushPlaces.unpack(packed) }
                slots[index].place = PushPlaces.pack(fresh)
                return nil
            }
            index = (index + 1) & mask
        }
        slots[index] = Slot(key: key, place: PushPlaces.pack(fresh), stamp: generation)
        used += 1
        return nil
    }

    /// Sets `key`'s place, whether or not it had one.
    mutating func set(_ place: Place, for key: Int) {
        _ = self.place(of: key, recordingIfNone: place)
        slots[slot(of: key)!].place = PushPlaces.pack(place)
    }

    /// Forgets `key`'s place and returns it (nil when it had none).
    mutating func remove(_ key: Int) -> Place? {
        guard let index = slot(of: key), slots[index].place >= 0 else { return nil }
        let place = PushPlaces.unpack(slots[index].place)
        slots[index].place = -1
        return place
    }

    /// Forgets every place; keeps the storage unless a burst made it large.
    mutating func removeAll() {
        guard used > 0 else { return }
        used = 0
        if slots.count > 2048 {
            slots = []
            bits = 0
            return
        }
        if generation == .max {
            for index in slots.indices { slots[index].stamp = 0 }
            generation = 0
        }
        generation += 1
    }

    // MARK: - Helpers

    /// The slot holding `key`, if any.
    private func slot(of key: Int) -> Int? {
        guard !slots.isEmpty else { return nil }
        var index = home(of: key)
        let mask = slots.count - 1
        while slots[index].stamp == generation {
            if slots[index].key == key { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Where probing for `key` starts: the top `bits` bits of a Fibonacci hash.
    private func home(of key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) &>> (64 - bits))
    }

    /// Doubles the slots (4 at first) and puts the slots in use back.
    private mutating func grow() {
        let old = slots
        let oldGeneration = generation
        bits = Swift.max(2, bits + 1)
        slots = Array(repeating: Slot(), count: 1 << bits)
        generation = 1
        used = 0
        let mask = slots.count - 1
        for slot in old where slot.stamp == oldGeneration {
            var index = home(of: slot.key)
            while slots[index].stamp == generation { index = (index + 1) & mask }
            slots[index] = Slot(key: slot.key, place: slot.place, stamp: generation)
            used += 1
        }
    }

    private static func pack(_ place: Place) -> Int { place.index << 1 | (place.held ? 1 : 0) }
    private static func unpack(_ packed: Int) -> Place { Place(held: packed & 1 == 1, index: packed >> 1) }
}

/// The subscription ids that may have a pending push in one outbox: one bit per id modulo 512.
/// Ids are handed out in sequence, so the subscriptions of one connection rarely share a bit, and a
/// push to a subscription whose bit is clear needs no lookup of its place (it has none).
struct PendingPushFilter {
    private var bits = InlineArray<8, UInt64>(repeating: 0)
    private var isClear = true

    /// Adds `key`; returns whether it may have been in already (its bit was set).
    mutating func insert(_ key: Int) -> Bool {
        let (word, mask) = PendingPushFilter.position(of: key)
        let old = bits[word]
        bits[word] = old | mask
        isClear = false
        return old & mask != 0
    }

    /// Whether `key` may be in (false: it is not).
    func contains(_ key: Int) -> Bool {
        let (word, mask) = PendingPushFilter.position(of: key)
        return bits[word] & mask != 0
    }

    /// Takes every key out.
    mutating func removeAll() {
        guard !isClear else { return }
        bits = InlineArray(repeating: 0)
        isClear = true
    }

    private static func position(of key: Int) -> (word: Int, mask: UInt64) {
        let bit = key & (8 * 64 - 1)
        return (bit >> 6, 1 << UInt64(bit & 63))
    }
}
