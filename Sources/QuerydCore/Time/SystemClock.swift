// The real wall clock (CLOCK_REALTIME), clamped so that it never goes backwards.

import Glibc

/// The system wall clock in milliseconds since the Unix epoch. If the system time is set back,
/// `now` holds at the latest value it has returned until real time catches up.
public final class SystemClock: CacheClock {
    private var latest: Int64 = .min

    /// Creates a clock reading the system time.
    public init() {}

    /// The current time in milliseconds since the Unix epoch, never less than a previous reading.
    public var now: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let reading = Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
        if reading > latest { latest = reading }
        return latest
    }
}
