// Tests of the table's hash function against SipHash-1-3's published outputs (the reference
// implementation, github.com/veorq/SipHash, with the all-zero key: the vectors OCaml's test suite
// and the RustCrypto `sip-hash` tests carry), over every path through the last block.

import Testing

@testable import QuerydCore

@Suite struct KeyHashTests {
    private let zeroKey = KeyHash(key0: 0, key1: 0)

    /// The hash of the bytes 0, 1, …, `count - 1`.
    private func hashOfCounting(_ count: Int) -> UInt64 {
        let bytes = (0..<count).map { UInt8($0) }
        return bytes.withUnsafeBytes { zeroKey($0) }
    }

    @Test(arguments: [
        (0, 0xd1fb_a762_150c_532c as UInt64), (1, 0x68a9_1412_8e01_e473), (7, 0x2f09_8ab0_c751_325a),
        (8, 0xead4_11e6_7ebe_2eea), (9, 0x7592_7f9d_9512_4362), (15, 0xf30e_b725_bb91_c9ea),
        (16, 0x8972_1884_33a5_c5b7), (17, 0x4883_c49a_2c00_9c1d), (23, 0x3733_2b13_89da_a4ff),
        (24, 0x3118_5a47_af93_2f3a),
    ])
    func matchesTheReferenceOutputs(count: Int, expected: UInt64) {
        #expect(hashOfCounting(count) == expected)
    }

    @Test func matchesTheReferenceOutputForText() {
        #expect(Array("siphash".utf8).withUnsafeBytes { zeroKey($0) } == 0x8264_ceec_cb16_bcbe)
    }

    @Test func readsOnlyTheBytesItIsGiven() {
        // A slice of a longer buffer hashes as the same bytes on their own (the last block is read
        // from within the slice, never past its end).
        let bytes = (0..<40).map { UInt8($0) }
        for count in 0...24 {
            let sliced = bytes.withUnsafeBytes { zeroKey(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            #expect(sliced == hashOfCounting(count))
        }
    }
}
