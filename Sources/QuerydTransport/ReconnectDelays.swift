// How long the Redis link waits before each reconnection attempt: exponential backoff with a ceiling and jitter.
import Glibc

/// The delays between reconnection attempts: `firstMilliseconds` after the first failure, multiplied by `factor`
/// after each further one, never more than `maximumMilliseconds`; each delay is shortened by a random fraction of
/// up to `jitter` so that many nodes losing one Redis do not come back in step.
public struct ReconnectDelays: Sendable, Equatable {
    /// The delay after the first failure, in milliseconds.
    public var firstMilliseconds: UInt64
    /// The growth of the delay per further failure (1 or more).
    public var factor: Double
    /// The ceiling of the delay, in milliseconds.
    public var maximumMilliseconds: UInt64
    /// The largest fraction (0…1) taken off a delay at random; 0 gives exact delays.
    public var jitter: Double

    /// Delays starting at `firstMilliseconds`, growing by `factor` up to `maximumMilliseconds`, with `jitter`.
    public init(firstMilliseconds: UInt64, factor: Double, maximumMilliseconds: UInt64, jitter: Double) {
        precondition(factor >= 1 && (0...1).contains(jitter), "ReconnectDelays: factor ≥ 1, jitter in 0…1")
        self.firstMilliseconds = firstMilliseconds
        self.factor = factor
        self.maximumMilliseconds = maximumMilliseconds
        self.jitter = jitter
    }

    /// 50 ms, doubling up to 2 s, up to 20 % shorter at random.
    public static let standard = ReconnectDelays(
        firstMilliseconds: 50, factor: 2, maximumMilliseconds: 2_000, jitter: 0.2)

    /// The delay before the next attempt after `failures` consecutive failures (1 for the first).
    public func milliseconds(afterFailures failures: Int, using generator: inout some RandomNumberGenerator) -> UInt64 {
        let exponent = Double(max(failures, 1) - 1)
        let grown = Double(firstMilliseconds) * pow(factor, exponent)
        let capped = min(grown, Double(maximumMilliseconds))
        let cut = jitter == 0 ? 0 : Double.random(in: 0...jitter, using: &generator)
        return UInt64((capped * (1 - cut)).rounded())
    }
}
