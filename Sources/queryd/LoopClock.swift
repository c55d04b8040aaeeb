// The production clock: the event loop's cached monotonic time, offset to the Unix epoch once at
// start, so timestamps are wall-clock milliseconds that never go backwards.

import Glibc
import QuerydCore
import QuerydTransport

/// Milliseconds since the epoch, advancing with the loop's monotonic clock.
final class LoopClock: CacheClock {
    private let loop: EventLoop
    private let offset: Int64

    init(loop: EventLoop) {
        self.loop = loop
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let wall = Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
        offset = wall - Int64(loop.nowMilliseconds)
    }

    var now: Int64 { offset + Int64(loop.nowMilliseconds) }
}
