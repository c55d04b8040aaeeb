// Tests of EncodedBytes: the bytes come back exactly in both length layouts (the 4-byte length,
// and the 8-byte one that values of 4 GiB and more get, forced here with a lower threshold).

import Testing

@testable import QuerydCore

@Suite struct EncodedBytesTests {
    @Test(arguments: [0, 1, 3, 100, 4_097])
    func bytesComeBackExactlyInBothLayouts(count: Int) {
        let source = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for wideFrom in [Int(UInt32.max), 0] {
            let block = source.withUnsafeBytes { EncodedBytes(copying: $0, wideFrom: wideFrom) }
            defer { block.deallocate() }
            #expect(block.count == count)
            #expect(block.array == source)
            #expect(block.withUnsafeBytes { Array($0) } == source)
        }
    }
}
