// A priority queue of payloads keyed by deadline, the core of the timer scheduler.
//
// A binary min-heap ordered by (deadline, insertion sequence), so equal deadlines come out in
// the order they were scheduled. The heap holds plain entries (deadline, sequence, slot); each
// payload lives in a slot of its own, with the sequence of the entry that owns it, so moving an
// entry copies three words and retains nothing, and "is this entry live" is one comparison.
// Cancellation frees the slot at once (the payload is released then) and leaves the entry in the
// heap, skipped. When more than half of the heap is cancelled it is rebuilt in steps: the old
// heap becomes `draining`, and every later operation moves `rebuildStep` of its entries from its
// end (removing a heap's last entry leaves a heap) into the new one, dropping the cancelled ones,
// so no cancel pays for the whole heap (a closed connection cancels 100,000 stale timers; with
// deadlines in subscription order every moved entry sifts up to the new heap's root, which cost a
// loop turn 9 ms when entries carried their payloads). Meanwhile both are heaps and the earlier of
// their tops comes out first. The top of each is always a live entry, so `nextDeadline` is exact
// and O(1).
//
// Nothing here grows in one long step: the heaps and slots are `ChunkedArray`s (200,000 fetch
// attempts started together schedule 200,000 timeouts; an `Array` heap doubling at 131,072 and a
// `Set` rehashing at 196,608 held the loop 2.5 and 5 ms).

/// Identifies one scheduled entry of a `DeadlineQueue`, for cancelling it.
public struct DeadlineToken: Hashable, Sendable {
    /// The insertion sequence number of the entry; unique within its queue.
    let sequence: UInt64
    /// The slot holding the entry's payload while it is live.
    let slot: Int
}

/// A min-heap of payloads ordered by deadline, then by insertion order.
public struct DeadlineQueue<Payload> {
    fileprivate struct Entry {
        let deadline: Int64
        let sequence: UInt64
        let slot: Int

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    /// How many entries of `draining` each operation moves while a rebuild runs. A rebuild starts
    /// with about twice as many entries as are live, so it ends within an eighth as many operations
    /// as there are live entries (and as many new cancellations at most).
    static var rebuildStep: Int { 16 }

    /// The sequence of a slot that holds no payload (no entry's sequence reaches it).
    private static var freeSlot: UInt64 { .max }

    private var heap = ChunkedArray<Entry>()
    /// While a rebuild runs: the previous heap, emptied from its end into `heap`.
    private var draining = ChunkedArray<Entry>()
    /// Per slot: the sequence of the live entry whose payload it holds, or `freeSlot`.
    private var owners = ChunkedArray<UInt64>()
    /// Per slot: the payload of its live entry (nil when free).
    private var payloads = ChunkedArray<Payload?>()
    /// Slots free for reuse.
    private var freeSlots = ChunkedArray<Int>()
    private var nextSequence: UInt64 = 0

    /// Creates an empty queue.
    public init() {}

    /// The number of live (scheduled, not yet popped or cancelled) entries.
    public private(set) var count = 0

    /// The deadline of the earliest live entry, or nil when there is none.
    public var nextDeadline: Int64? { earliest?.deadline }

    /// The number of entries held in storage, live or cancelled but not yet discarded (for tests).
    var storedCount: Int { heap.count + draining.count }

    /// Whether a rebuild is moving entries to a new heap (for tests).
    var isRebuilding: Bool { !draining.isEmpty }

    /// The most entries any one block of storage was made for (for tests of the growth in pieces).
    var largestBlock: Int {
        max(heap.largestBlock, draining.largestBlock, owners.largestBlock, payloads.largestBlock)
    }

    /// The earliest live entry: the earlier of the two heaps' tops.
    private var earliest: Entry? {
        guard let old = draining.first else { return heap.first }
        guard let top = heap.first, top.precedes(old) else { return old }
        return top
    }

    /// Adds `payload` to fire at `deadline`, after every entry already scheduled for that deadline.
    public mutating func schedule(at deadline: Int64, _ payload: Payload) -> DeadlineToken {
        let sequence = nextSequence
        nextSequence += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            owners[slot] = sequence
            payloads[slot] = payload
        } else {
            slot = owners.count
            owners.append(sequence)
            payloads.append(payload)
        }
        count += 1
        heap.append(Entry(deadline: deadline, sequence: sequence, slot: slot))
        Self.siftUp(&heap, heap.count - 1)
        continueRebuild()
        return DeadlineToken(sequence: sequence, slot: slot)
    }

    /// Cancels the entry of `token` so it is never returned, releasing its payload. Cancelling an
    /// entry that was already popped or cancelled, or a token of another queue that this queue
    /// never issued, does nothing.
    public mutating func cancel(_ token: DeadlineToken) {
        guard token.slot >= 0, token.slot < owners.count, owners[token.slot] == token.sequence else { return }
        _ = release(token.slot)
        if draining.isEmpty, heap.count > 2 * count {
            draining = heap
            heap = ChunkedArray()
        }
        continueRebuild()
        dropCancelledTops()
        releaseSlotsWhenEmpty()
    }

    /// Removes and returns the earliest live entry whose deadline is at or before `now`.
    public mutating func popDue(now: Int64) -> Payload? {
        guard let top = earliest, top.deadline <= now else { return nil }
        if let old = draining.first, old.sequence == top.sequence {
            Self.removeTop(&draining)
        } else {
            Self.removeTop(&heap)
        }
        let payload = release(top.slot)
        continueRebuild()
        dropCancelledTops()
        releaseSlotsWhenEmpty()
        return payload
    }

    /// Lets the storage go (the slots and the heap's spare chunk) once nothing is scheduled or
    /// stored, so a burst of timers (a connection's 100,000 stale timers) leaves no slots behind;
    /// small queues keep theirs.
    private mutating func releaseSlotsWhenEmpty() {
        guard count == 0, heap.isEmpty, draining.isEmpty, owners.count > ChunkedArray<Int>.chunkSize else { return }
        heap = ChunkedArray()
        owners = ChunkedArray()
        payloads = ChunkedArray()
        freeSlots = ChunkedArray()
    }

    /// Frees `slot` (of a live entry) and returns its payload.
    private mutating func release(_ slot: Int) -> Payload? {
        owners[slot] = Self.freeSlot
        let payload = payloads[slot]
        payloads[slot] = nil
        freeSlots.append(slot)
        count -= 1
        return payload
    }

    /// Whether `entry` is still scheduled (neither popped nor cancelled).
    private func isLive(_ entry: Entry) -> Bool { owners[entry.slot] == entry.sequence }

    /// Removes cancelled entries from the tops of both heaps, so each top is live or the heap empty.
    private mutating func dropCancelledTops() {
        while let top = heap.first, !isLive(top) { Self.removeTop(&heap) }
        while let top = draining.first, !isLive(top) { Self.removeTop(&draining) }
    }

    /// Moves the next `rebuildStep` entries of `draining` to `heap`, dropping cancelled ones; lets
    /// the old storage go when it is empty.
    private mutating func continueRebuild() {
        guard !draining.isEmpty else { return }
        for _ in 0..<Self.rebuildStep {
            guard let entry = draining.popLast() else { break }
            guard isLive(entry) else { continue }
            heap.append(entry)
            Self.siftUp(&heap, heap.count - 1)
        }
        if draining.isEmpty { draining = ChunkedArray() }
    }

    private static func removeTop(_ heap: inout ChunkedArray<Entry>) {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(&heap, 0)
        }
    }

    /// Moves the entry at `start` up to its place, shifting the parents it passes down a level.
    private static func siftUp(_ heap: inout ChunkedArray<Entry>, _ start: Int) {
        let moving = heap[start]
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            let above = heap[parent]
            guard moving.precedes(above) else { break }
            heap[child] = above
            child = parent
        }
        heap[child] = moving
    }

    /// Moves the entry at `start` down to its place, shifting the children it passes up a level.
    private static func siftDown(_ heap: inout ChunkedArray<Entry>, _ start: Int) {
        let moving = heap[start]
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            var smallest = left
            var below = heap[left]
            let right = left + 1
            if right < heap.count {
                let other = heap[right]
                if other.precedes(below) {
                    smallest = right
                    below = other
                }
            }
            guard below.precedes(moving) else { break }
            heap[parent] = below
            parent = smallest
        }
        heap[parent] = moving
    }
}

extension DeadlineQueue: Sendable where Payload: Sendable {}

extension DeadlineQueue.Entry: Sendable {}
