// One-shot timers on a `CacheClock`: gcTime, retry delays, polling and timeouts all use it.
//
// A timer is a value (`Event`), not a closure: the scheduler keeps events by deadline and hands
// back the ones that are due; whoever owns it decides what each event does (the engine, see
// `EngineTimer`). The scheduler does not own a thread or an event loop: the daemon arms one libuv
// timer for `nextDeadline` and then asks for the due events; tests and simulations call
// `advance(_:by:fire:)`, which walks virtual time deadline by deadline.

/// Identifies one scheduled timer, for cancelling it.
public struct TimerHandle: Hashable, Sendable {
    let token: DeadlineToken
}

/// Holds events until deadlines of a clock, and returns them in (deadline, scheduling order) order.
public final class TimerScheduler<Event> {
    /// The clock that deadlines refer to.
    public let clock: any CacheClock

    private var queue = DeadlineQueue<Event>()

    /// Creates a scheduler on `clock`.
    public init(clock: any CacheClock) {
        self.clock = clock
    }

    /// Schedules `event` for `ms` milliseconds from now (a negative delay counts as 0).
    @discardableResult
    public func schedule(after ms: Int64, _ event: Event) -> TimerHandle {
        schedule(at: clock.now + max(ms, 0), event)
    }

    /// Schedules `event` for when the clock reaches `deadline` (ms since the Unix epoch).
    @discardableResult
    public func schedule(at deadline: Int64, _ event: Event) -> TimerHandle {
        TimerHandle(token: queue.schedule(at: deadline, event))
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

    /// Removes and returns the earliest event whose deadline is at or before `clock.now` (ties in
    /// scheduling order), or nil when none is due.
    public func popDue() -> Event? {
        queue.popDue(now: clock.now)
    }

    /// Hands every due event to `fire`, earliest first, including events that `fire` schedules and
    /// that are already due.
    public func fireDue(_ fire: (Event) -> Void) {
        while let event = popDue() { fire(event) }
    }

    /// Moves `clock` (which must be this scheduler's clock) forward by `ms` milliseconds, stopping
    /// at each pending deadline on the way to set the clock to it and fire what is due, so every
    /// event sees its own deadline as the time, and events scheduled while firing fire within
    /// this call when they fall inside the window. Ends with the clock at the starting time + `ms`
    /// (a negative `ms` counts as 0), or later if firing advanced the clock itself.
    public func advance(_ clock: ManualClock, by ms: Int64, fire: (Event) -> Void) {
        precondition(clock === self.clock, "advance(_:by:fire:) needs the scheduler's own clock")
        let target = clock.now + max(ms, 0)
        while let deadline = queue.nextDeadline, deadline <= target {
            if deadline > clock.now {
                clock.advance(by: deadline - clock.now)
            }
            fireDue(fire)
        }
        clock.advance(by: target - clock.now)
    }
}
