// One-shot timers on a `CacheClock`: gcTime, retry delays, polling and timeouts all use it.
//
// The scheduler does not own a thread or an event loop. Whoever drives it calls `runDue()` when
// the clock may have passed `nextDeadline` (the daemon arms one libuv timer for that deadline);
// tests and simulations call `advance(_:by:)`, which walks virtual time deadline by deadline.

/// Identifies one scheduled timer, for cancelling it.
public struct TimerHandle: Hashable, Sendable {
    let token: DeadlineToken
}

/// Runs actions at deadlines of a clock, in (deadline, scheduling order) order.
public final class TimerScheduler {
    /// The clock that deadlines refer to.
    public let clock: any CacheClock

    private var queue = DeadlineQueue<() -> Void>()

    /// Creates a scheduler on `clock`.
    public init(clock: any CacheClock) {
        self.clock = clock
    }

    /// Schedules `action` to run `ms` milliseconds from now (a negative delay counts as 0).
    @discardableResult
    public func schedule(after ms: Int64, _ action: @escaping () -> Void) -> TimerHandle {
        schedule(at: clock.now + max(ms, 0), action)
    }

    /// Schedules `action` to run once the clock reaches `deadline` (ms since the Unix epoch).
    @discardableResult
    public func schedule(at deadline: Int64, _ action: @escaping () -> Void) -> TimerHandle {
        TimerHandle(token: queue.schedule(at: deadline, action))
    }

    /// Cancels a pending timer. Cancelling a timer that already fired, was already cancelled, or
    /// is unknown does nothing.
    public func cancel(_ handle: TimerHandle) {
        queue.cancel(handle.token)
    }

    /// The deadline of the earliest pending timer, or nil when none is pending.
    public var nextDeadline: Int64? { queue.nextDeadline }

    /// The number of pending timers.
    public var pendingCount: Int { queue.count }

    /// Fires every pending timer whose deadline is at or before `clock.now`, earliest first (ties in
    /// scheduling order), including timers scheduled by fired actions that are already due.
    public func runDue() {
        while let action = queue.popDue(now: clock.now) {
            action()
        }
    }

    /// Moves `clock` (which must be this scheduler's clock) forward by `ms` milliseconds, stopping
    /// at each pending deadline on the way to set the clock to it and fire what is due, so every
    /// action sees its own deadline as the time, and timers scheduled by those actions fire within
    /// this call when they fall inside the window. Ends with the clock at the starting time + `ms`
    /// (a negative `ms` counts as 0), or later if an action advanced the clock itself.
    public func advance(_ clock: ManualClock, by ms: Int64) {
        precondition(clock === self.clock, "advance(_:by:) needs the scheduler's own clock")
        let target = clock.now + max(ms, 0)
        while let deadline = queue.nextDeadline, deadline <= target {
            if deadline > clock.now {
                clock.advance(by: deadline - clock.now)
            }
            runDue()
        }
        clock.advance(by: target - clock.now)
    }
}
