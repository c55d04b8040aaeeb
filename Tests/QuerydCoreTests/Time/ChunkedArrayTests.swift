// Tests of ChunkedArray: over random appends, removals, writes and swaps it holds exactly what a
// standard Array holds, and no block of its storage is made for much more than one chunk.

import QuerydTestSupport
import Testing

@testable import QuerydCore

@Suite struct ChunkedArrayTests {
    @Test func matchesAnArrayOverRandomOperations() {
        var generator = SeededGenerator(seed: 22)
        var chunked = ChunkedArray<Int>()
        var plain: [Int] = []
        for step in 0..<60_000 {
            // Grows most of the time, so the arrays cross many chunk edges both ways.
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                chunked.append(step)
                plain.append(step)
            case 5..<8:
                #expect(chunked.popLast() == plain.popLast())
            case 8 where !plain.isEmpty:
                let index = Int.random(in: 0..<plain.count, using: &generator)
                chunked[index] = -step
                plain[index] = -step
            case 9 where !plain.isEmpty:
                let i = Int.random(in: 0..<plain.count, using: &generator)
                let j = Int.random(in: 0..<plain.count, using: &generator)
                chunked.swapAt(i, j)
                plain.swapAt(i, j)
            default:
                break
            }
            #expect(chunked.count == plain.count)
            #expect(chunked.first == plain.first)
        }
        #expect(plain.count > 2 * ChunkedArray<Int>.chunkSize)
        #expect((0..<plain.count).allSatisfy { chunked[$0] == plain[$0] })
        #expect(chunked.largestBlock < 2 * ChunkedArray<Int>.chunkSize)
        while !plain.isEmpty { #expect(chunked.removeLast() == plain.removeLast()) }
        #expect(chunked.isEmpty && chunked.popLast() == nil)
    }
}
