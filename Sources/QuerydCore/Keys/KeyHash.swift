// The hash `QueryTable` finds keys by: SipHash-1-3 of the key's canonical bytes under a key drawn
// once per process, the function and the seeding the standard library's `Hasher` uses, without
// `Hasher`'s streaming state (a key is hashed in one call, from one buffer). Clients choose the
// keys, so collisions must stay hard to provoke: the seed comes from `Hasher`'s own per-process
// random seed (fixed only where `SWIFT_DETERMINISTIC_HASHING` fixes that too).

/// SipHash-1-3 (Aumasson and Bernstein; one compression round per 8-byte block and three
/// finalisation rounds) with a 128-bit key.
struct KeyHash {
    private let key0: UInt64
    private let key1: UInt64

    /// The hash under the given key (for tests against published vectors).
    init(key0: UInt64, key1: UInt64) {
        self.key0 = key0
        self.key1 = key1
    }

    /// The hash under this process's key: two words of `Hasher`'s output, unpredictable outside the
    /// process as its seed is.
    static let process: KeyHash = {
        func word(_ salt: UInt64) -> UInt64 {
            var hasher = Hasher()
            hasher.combine(salt)
            return UInt64(UInt(bitPattern: hasher.finalize()))
        }
        return KeyHash(key0: word(0x7175_6572_7964_0000), key1: word(0x7175_6572_7964_0001))
    }()

    /// The 64-bit SipHash-1-3 of `bytes`.
    @inline(__always)
    func callAsFunction(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var v0 = key0 ^ 0x736f_6d65_7073_6575
        var v1 = key1 ^ 0x646f_7261_6e64_6f6d
        var v2 = key0 ^ 0x6c79_6765_6e65_7261
        var v3 = key1 ^ 0x7465_6462_7974_6573

        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            let block = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            v3 ^= block
            Self.round(&v0, &v1, &v2, &v3)
            v0 ^= block
            offset += 8
        }
        // The last block: the 0 to 7 bytes left, little-endian, and the length's low byte on top.
        var last = UInt64(truncatingIfNeeded: count) << 56
        let rest = count - offset
        if rest > 0, count >= 8 {
            // The buffer's last 8 bytes end with the rest; shift the ones already taken out.
            let tail = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            last |= tail >> UInt64(64 - 8 * rest)
        } else {
            for index in 0..<rest { last |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        }
        v3 ^= last
        Self.round(&v0, &v1, &v2, &v3)
        v0 ^= last
        v2 ^= 0xff
        Self.round(&v0, &v1, &v2, &v3)
        Self.round(&v0, &v1, &v2, &v3)
        Self.round(&v0, &v1, &v2, &v3)
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension KeyHash {
    /// One SipRound.
    @inline(__always)
    private static func round(_ v0: inout UInt64, _ v1: inout UInt64, _ v2: inout UInt64, _ v3: inout UInt64) {
        v0 &+= v1
        v1 = v1.rotatedLeft(13) ^ v0
        v0 = v0.rotatedLeft(32)
        v2 &+= v3
        v3 = v3.rotatedLeft(16) ^ v2
        v0 &+= v3
        v3 = v3.rotatedLeft(21) ^ v0
        v2 &+= v1
        v1 = v1.rotatedLeft(17) ^ v2
        v2 = v2.rotatedLeft(32)
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ distance: UInt64) -> UInt64 {
        (self << distance) | (self >> (64 - distance))
    }
}
