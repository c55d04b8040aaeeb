// An array that grows a chunk at a time, for storage that must never grow in one long step.
//
// A Swift `Array` doubles by copying every element to a new block: the timer heap passing 131,072
// entries (200,000 fetch attempts started, each with its timeout) copied 6 MB into fresh memory in
// one step, 2.5 ms of one loop turn. Here the elements live in chunks of `chunkSize`; appending
// fills the last chunk or adds one, so no element is moved once stored (only the short list of
// chunk references is ever copied: 1/4096 as many entries).

/// A random-access list stored in fixed-size chunks; elements are appended and removed at the end.
struct ChunkedArray<Element> {
    /// Elements per chunk (a power of two).
    static var chunkSize: Int { 4096 }
    private static var chunkShift: Int { 12 }

    private var chunks: [[Element]] = []
    /// The number of elements.
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    var first: Element? { count == 0 ? nil : chunks[0][0] }

    subscript(index: Int) -> Element {
        get { chunks[index >> Self.chunkShift][index & (Self.chunkSize - 1)] }
        set { chunks[index >> Self.chunkShift][index & (Self.chunkSize - 1)] = newValue }
    }

    mutating func append(_ element: Element) {
        let chunk = count >> Self.chunkShift
        if chunk == chunks.count {
            chunks.append([])
            chunks[chunk].reserveCapacity(Self.chunkSize)
        }
        chunks[chunk].append(element)
        count += 1
    }

    /// Removes and returns the last element, if any. One emptied chunk is kept as a spare (appends
    /// and removals across a chunk's edge then allocate nothing).
    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        let element = chunks[count >> Self.chunkShift].removeLast()
        let holding = (count + Self.chunkSize - 1) >> Self.chunkShift
        if chunks.count > holding + 1 { chunks.removeLast() }
        return element
    }

    /// Removes and returns the last element.
    /// - Precondition: the array is not empty.
    mutating func removeLast() -> Element {
        guard let element = popLast() else { preconditionFailure("removeLast on an empty ChunkedArray") }
        return element
    }

    mutating func swapAt(_ i: Int, _ j: Int) {
        let held = self[i]
        self[i] = self[j]
        self[j] = held
    }

    /// The capacity of the largest block of elements (for tests of the growth).
    var largestBlock: Int { chunks.map(\.capacity).max() ?? 0 }
}

extension ChunkedArray: Sendable where Element: Sendable {}
