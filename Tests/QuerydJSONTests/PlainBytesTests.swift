// The word-at-a-time byte test agrees with a byte-by-byte definition.

import Testing

@testable import QuerydJSON

@Suite("Word-at-a-time scanning")
struct PlainBytesTests {
    static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    @Test func everyByteValueInEveryLane() {
        for lane in 0..<8 {
            for byte in 0...255 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[lane] = UInt8(byte)
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(PlainBytes.isPlainWord(word) == Self.isPlain(UInt8(byte)), "byte \(byte) in lane \(lane)")
            }
        }
    }

    @Test func borrowsFromLowerLanesDoNotHideSpecialBytes() {
        // A zero or special byte next to bytes that make subtraction borrow.
        let tricky: [[UInt8]] = [
            [0x00, 0x01, 0x22, 0x5C, 0x20, 0x21, 0x7F, 0x1F],
            [0x21, 0x21, 0x21, 0x21, 0x21, 0x21, 0x21, 0x22],
            [0x5D, 0x5D, 0x5D, 0x5D, 0x5D, 0x5D, 0x5D, 0x5C],
            [0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x1F],
            [0x01, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20],
        ]
        for bytes in tricky {
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            #expect(PlainBytes.isPlainWord(word) == bytes.allSatisfy(Self.isPlain), "\(bytes)")
        }
    }

    @Test func pseudoRandomWords() {
        var random = SplitMix64(state: 42)
        for _ in 0..<20_000 {
            let raw = random.next()
            // Half the words are ASCII-only so that both outcomes occur often.
            let word = random.below(2) == 0 ? raw & 0x7F7F_7F7F_7F7F_7F7F : raw
            let bytes = withUnsafeBytes(of: word) { Array($0) }
            #expect(PlainBytes.isPlainWord(word) == bytes.allSatisfy(Self.isPlain))
        }
    }
}
