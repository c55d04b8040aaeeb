// The cache's notion of "now", injectable so tests and simulations control time exactly.

/// A source of the current time in milliseconds since the Unix epoch. It never goes backwards.
public protocol CacheClock: AnyObject {
    /// The current time in milliseconds since the Unix epoch.
    var now: Int64 { get }
}

/// A clock that moves only when told to: the clock of tests and of deterministic simulations.
public final class ManualClock: CacheClock {
    /// The current virtual time in milliseconds since the Unix epoch. Read for every input; its
    /// one write is a single increment, so accesses are not checked for exclusivity.
    @exclusivity(unchecked) public private(set) var now: Int64

    /// Creates a clock reading `start` (default: 2023-11-14T22:13:20Z).
    public init(start: Int64 = 1_700_000_000_000) {
        now = start
    }

    /// Moves the clock forward by `ms` milliseconds. A negative amount is ignored, so the clock
    /// never goes backwards.
    public func advance(by ms: Int64) {
        if ms > 0 { now += ms }
    }
}
