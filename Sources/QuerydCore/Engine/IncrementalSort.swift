// A merge sort that can stop after any number of element moves and go on later, so sorting the
// matches of a sweep over millions of queries never takes one long step (see QueryCache+Sweeps).

/// Sorts `items` (stably) in steps of a bounded number of element moves: bottom-up merge sort
/// between two buffers, its position kept between steps.
struct IncrementalSort<Element> {
    /// The elements: sorted once `isDone`.
    private(set) var items: [Element]
    /// Where a pass merges to (filled by appending during the first pass).
    private var target: [Element]
    private let areInIncreasingOrder: (Element, Element) -> Bool
    /// The length of the sorted runs being merged in this pass.
    private var width = 1
    /// The merge in progress: left run `[left, middle)`, right run `[right, end)`, output at `next`.
    private var left = 0
    private var middle = 0
    private var right = 0
    private var end = 0
    private var next = 0

    /// Prepares to sort `items`; nothing is moved until `step`.
    init(_ items: [Element], by areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
        self.items = items
        // The first pass appends to an empty buffer rather than copying `items` in one step (at
        // millions of elements a copy, and the page faults of fresh memory, take milliseconds).
        target = []
        target.reserveCapacity(items.count)
        self.areInIncreasingOrder = areInIncreasingOrder
        startMerge(at: 0)
    }

    /// Whether `items` is sorted.
    var isDone: Bool { width >= items.count }

    /// Moves at most `budget` (at least 1) elements; returns how many it moved.
    @discardableResult
    mutating func step(budget: Int) -> Int {
        precondition(budget > 0, "a sort step moves at least one element")
        var moves = 0
        while !isDone, moves < budget {
            if next == items.count {
                swap(&items, &target)
                width *= 2
                startMerge(at: 0)
                continue
            }
            while moves < budget, next < end {
                let taken: Element
                if right < end && (middle <= left || areInIncreasingOrder(items[right], items[left])) {
                    taken = items[right]
                    right += 1
                } else {
                    taken = items[left]
                    left += 1
                }
                if next < target.count { target[next] = taken } else { target.append(taken) }
                next += 1
                moves += 1
            }
            if next == end, next < items.count { startMerge(at: end) }
        }
        return moves
    }

    private mutating func startMerge(at start: Int) {
        let count = items.count
        left = start
        middle = min(start + width, count)
        right = middle
        end = min(start + 2 * width, count)
        next = start
    }
}
