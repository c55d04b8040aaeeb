// A priority queue of payloads keyed by deadline, the core of the timer scheduler.
//
// A binary min-heap ordered by (deadline, insertion sequence), so equal deadlines come out in
// the order they were scheduled. Cancellation is lazy: a cancelled entry stays in the heap but
// is skipped, never returned; the heap is rebuilt when more than half of it is cancelled, and the
// top of the heap is always a live entry, so `nextDeadline` is exact and O(1).

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

    private var heap: [Entry] = []
    private var live: Set<UInt64> = []
    private var nextSequence: UInt64 = 0

    /// Creates an empty queue.
    public init() {}

    /// The number of live (scheduled, not yet popped or cancelled) entries.
    public var count: Int { live.count }

    /// The deadline of the earliest live entry, or nil when there is none.
    public var nextDeadline: Int64? { heap.first?.deadline }

    /// The number of entries held in storage, live or cancelled but not yet discarded (for tests).
    var storedCount: Int { heap.count }

    /// Adds `payload` to fire at `deadline`, after every entry already scheduled for that deadline.
    public mutating func schedule(at deadline: Int64, _ payload: Payload) -> DeadlineToken {
        let sequence = nextSequence
        nextSequence += 1
        heap.append(Entry(deadline: deadline, sequence: sequence, payload: payload))
        siftUp(heap.count - 1)
        live.insert(sequence)
        return DeadlineToken(sequence: sequence)
    }

    /// Cancels the entry of `token` so it is never returned. Cancelling an entry that was already
    /// popped or cancelled, or a token of another queue that this queue never issued, does nothing.
    public mutating func cancel(_ token: DeadlineToken) {
        guard live.remove(token.sequence) != nil else { return }
        if heap.count > 2 * live.count {
            compact()
        } else {
            dropCancelledTop()
        }
    }

    /// Removes and returns the earliest live entry whose deadline is at or before `now`.
    public mutating func popDue(now: Int64) -> Payload? {
        guard let top = heap.first, top.deadline <= now else { return nil }
        removeTop()
        live.remove(top.sequence)
        dropCancelledTop()
        return top.payload
    }

    /// Removes cancelled entries from the top of the heap, so the top is live or the heap empty.
    private mutating func dropCancelledTop() {
        while let top = heap.first, !live.contains(top.sequence) {
            removeTop()
        }
    }

    /// Rebuilds the heap from its live entries only (Floyd's bottom-up heap construction, O(n)).
    private mutating func compact() {
        heap.removeAll { !live.contains($0.sequence) }
        if heap.count > 1 {
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
                siftDown(index)
            }
        }
        if heap.capacity > 64, heap.count * 4 < heap.capacity {
            var shrunk: [Entry] = []
            shrunk.reserveCapacity(heap.count)
            shrunk.append(contentsOf: heap)
            heap = shrunk
        }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
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
