// A priority queue of payloads keyed by deadline, the core of the timer scheduler.
//
// A binary min-heap ordered by (deadline, insertion sequence), so equal deadlines come out in
// the order they were scheduled. Cancellation is lazy: a cancelled entry stays in the heap but
// is skipped, never returned. When more than half of the heap is cancelled it is rebuilt in steps:
// the old heap becomes `draining`, and every later operation moves `rebuildStep` of its entries
// from its end (removing a heap's last entry leaves a heap) into the new one, dropping the
// cancelled ones, so no cancel pays for the whole heap (a closed connection cancels 100,000 stale
// timers). Meanwhile both are heaps and the earlier of their tops comes out first. The top of each
// is always a live entry, so `nextDeadline` is exact and O(1).
//
// Nothing here grows in one long step: the heaps are `ChunkedArray`s and the live sequence numbers
// a `ShardedSet` (200,000 fetch attempts started together schedule 200,000 timeouts; an `Array`
// heap doubling at 131,072 and a `Set` rehashing at 196,608 held the loop 2.5 and 5 ms).

/// Identifies one scheduled entry of a `DeadlineQueue`, for cancelling it.
public struct DeadlineToken: Hashable, Sendable {
    /// The insertion sequence number of the entry; unique within its queue.
    let sequence: UInt64
}

/// A min-heap of payloads ordered by deadline, then by insertion order.
public struct DeadlineQueue<Payload> {
    fileprivate struct Entry {
        let deadline: Int64
        let sequence: UInt64
        let payload: Payload

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    /// How many entries of `draining` each operation moves while a rebuild runs. A rebuild starts
    /// with about twice as many entries as are live, so it ends within an eighth as many operations
    /// as there are live entries (and as many new cancellations at most).
    static var rebuildStep: Int { 16 }

    private var heap = ChunkedArray<Entry>()
    /// While a rebuild runs: the previous heap, emptied from its end into `heap`.
    private var draining = ChunkedArray<Entry>()
    private var live = ShardedSet<UInt64>()
    private var nextSequence: UInt64 = 0

    /// Creates an empty queue.
    public init() {}

    /// The number of live (scheduled, not yet popped or cancelled) entries.
    public var count: Int { live.count }

    /// The deadline of the earliest live entry, or nil when there is none.
    public var nextDeadline: Int64? { earliest?.deadline }

    /// The number of entries held in storage, live or cancelled but not yet discarded (for tests).
    var storedCount: Int { heap.count + draining.count }

    /// Whether a rebuild is moving entries to a new heap (for tests).
    var isRebuilding: Bool { !draining.isEmpty }

    /// The most entries any one block of storage was made for (for tests of the growth in pieces).
    var largestBlock: Int { max(heap.largestBlock, draining.largestBlock, live.largestShard) }

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
        heap.append(Entry(deadline: deadline, sequence: sequence, payload: payload))
        Self.siftUp(&heap, heap.count - 1)
        live.insert(sequence)
        continueRebuild()
        return DeadlineToken(sequence: sequence)
    }

    /// Cancels the entry of `token` so it is never returned. Cancelling an entry that was already
    /// popped or cancelled, or a token of another queue that this queue never issued, does nothing.
    public mutating func cancel(_ token: DeadlineToken) {
        guard live.remove(token.sequence) != nil else { return }
        if draining.isEmpty, heap.count > 2 * live.count {
            draining = heap
            heap = ChunkedArray()
        }
        continueRebuild()
        dropCancelledTops()
    }

    /// Removes and returns the earliest live entry whose deadline is at or before `now`.
    public mutating func popDue(now: Int64) -> Payload? {
        guard let top = earliest, top.deadline <= now else { return nil }
        if let old = draining.first, old.sequence == top.sequence {
            Self.removeTop(&draining)
        } else {
            Self.removeTop(&heap)
        }
        live.remove(top.sequence)
        continueRebuild()
        dropCancelledTops()
        return top.payload
    }

    /// Removes cancelled entries from the tops of both heaps, so each top is live or the heap empty.
    private mutating func dropCancelledTops() {
        while let top = heap.first, !live.contains(top.sequence) { Self.removeTop(&heap) }
        while let top = draining.first, !live.contains(top.sequence) { Self.removeTop(&draining) }
    }

    /// Moves the next `rebuildStep` entries of `draining` to `heap`, dropping cancelled ones; lets
    /// the old storage go when it is empty.
    private mutating func continueRebuild() {
        guard !draining.isEmpty else { return }
        for _ in 0..<Self.rebuildStep {
            guard let entry = draining.popLast() else { break }
            guard live.contains(entry.sequence) else { continue }
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

    private static func siftUp(_ heap: inout ChunkedArray<Entry>, _ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout ChunkedArray<Entry>, _ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            let right = left + 1
            if right < heap.count, heap[right].precedes(heap[left]) { smallest = right }
            guard heap[smallest].precedes(heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}

extension DeadlineQueue: Sendable where Payload: Sendable {}

extension DeadlineQueue.Entry: Sendable where Payload: Sendable {}
