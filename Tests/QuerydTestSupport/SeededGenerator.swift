// SplitMix64: the one seeded generator every test target uses, so a random test replays exactly.

/// A small deterministic generator (SplitMix64) so random tests are reproducible from their seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0), by plain modulo: cheap, and the bias does not matter to tests.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
