// Tests of TimerScheduler and ManualClock: firing order, virtual time seen by actions, chaining
// and cancellation.

import QuerydCore
import Testing

/// Records what fired and the clock reading each action saw.
final class FiringLog {
    var entries: [String] = []
}

@Suite struct TimerSchedulerTests {
    @Test func manualClockNeverGoesBackwards() {
        let clock = ManualClock()
        #expect(clock.now == 1_700_000_000_000)
        clock.advance(by: 250)
        #expect(clock.now == 1_700_000_000_250)
        clock.advance(by: -100)
        #expect(clock.now == 1_700_000_000_250)
        #expect(ManualClock(start: 5).now == 5)
    }

    @Test func advanceFiresInOrderAtEachDeadline() {
        let clock = ManualClock(start: 0)
        let scheduler = TimerScheduler<() -> Void>(clock: clock)
        let log = FiringLog()
        scheduler.schedule(after: 300) { log.entries.append("c@\(clock.now)") }
        scheduler.schedule(after: 100) { log.entries.append("a@\(clock.now)") }
        scheduler.schedule(at: 100) { log.entries.append("a2@\(clock.now)") }
        scheduler.schedule(after: 200) { log.entries.append("b@\(clock.now)") }
        scheduler.schedule(after: 5000) { log.entries.append("late@\(clock.now)") }
        #expect(scheduler.pendingCount == 5)
        #expect(scheduler.nextDeadline == 100)
        scheduler.advance(clock, by: 1000) { $0() }
        #expect(log.entries == ["a@100", "a2@100", "b@200", "c@300"])
        #expect(clock.now == 1000)
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.nextDeadline == 5000)
    }

    @Test func chainedTimersFireWithinOneAdvanceAtTheirOwnTime() {
        let clock = ManualClock(start: 0)
        let scheduler = TimerScheduler<() -> Void>(clock: clock)
        let log = FiringLog()
        // A retry loop: each attempt schedules the next 1000 ms later.
        func attempt(_ n: Int) {
            log.entries.append("attempt\(n)@\(clock.now)")
            if n < 5 { scheduler.schedule(after: 1000) { attempt(n + 1) } }
        }
        scheduler.schedule(after: 500) { attempt(1) }
        scheduler.schedule(after: 2000) { log.entries.append("other@\(clock.now)") }
        scheduler.advance(clock, by: 3600) { $0() }
        #expect(log.entries == ["attempt1@500", "attempt2@1500", "other@2000", "attempt3@2500", "attempt4@3500"])
        #expect(clock.now == 3600)
        #expect(scheduler.nextDeadline == 4500)
        scheduler.advance(clock, by: 900) { $0() }
        #expect(log.entries.last == "attempt5@4500")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func actionScheduledAlreadyDueFiresInSameRun() {
        let clock = ManualClock(start: 0)
        let scheduler = TimerScheduler<() -> Void>(clock: clock)
        let log = FiringLog()
        scheduler.schedule(after: 10) {
            log.entries.append("first@\(clock.now)")
            scheduler.schedule(after: -50) { log.entries.append("immediate@\(clock.now)") }
            scheduler.schedule(after: 0) { log.entries.append("zero@\(clock.now)") }
        }
        scheduler.schedule(after: 10) { log.entries.append("second@\(clock.now)") }
        clock.advance(by: 10)
        scheduler.fireDue { $0() }
        #expect(log.entries == ["first@10", "second@10", "immediate@10", "zero@10"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func runDueFiresOnlyWhatIsDueInDeadlineOrder() {
        let clock = ManualClock(start: 0)
        let scheduler = TimerScheduler<() -> Void>(clock: clock)
        let log = FiringLog()
        scheduler.schedule(at: 30) { log.entries.append("30") }
        scheduler.schedule(at: 10) { log.entries.append("10") }
        scheduler.schedule(at: 31) { log.entries.append("31") }
        scheduler.fireDue { $0() }
        #expect(log.entries.isEmpty)
        clock.advance(by: 30)
        scheduler.fireDue { $0() }
        #expect(log.entries == ["10", "30"])
        #expect(scheduler.nextDeadline == 31)
    }

    @Test func cancelFromInsideAnAction() {
        let clock = ManualClock(start: 0)
        let scheduler = TimerScheduler<() -> Void>(clock: clock)
        let log = FiringLog()
        var victim: TimerHandle?
        var laterVictim: TimerHandle?
        scheduler.schedule(after: 100) {
            log.entries.append("killer@\(clock.now)")
            if let victim { scheduler.cancel(victim) }
            if let laterVictim { scheduler.cancel(laterVictim) }
        }
        victim = scheduler.schedule(after: 100) { log.entries.append("victim") }
        laterVictim = scheduler.schedule(after: 700) { log.entries.append("laterVictim") }
        scheduler.schedule(after: 800) { log.entries.append("survivor@\(clock.now)") }
        scheduler.advance(clock, by: 1000) { $0() }
        #expect(log.entries == ["killer@100", "survivor@800"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancellingFiredOrUnknownHandlesIsANoOp() {
        let clock = ManualClock(start: 0)
        let scheduler = TimerScheduler<() -> Void>(clock: clock)
        let other = TimerScheduler<() -> Void>(clock: clock)
        let log = FiringLog()
        let fired = scheduler.schedule(after: 1) { log.entries.append("fired") }
        scheduler.advance(clock, by: 1) { $0() }
        scheduler.cancel(fired)
        scheduler.cancel(fired)
        let foreign = other.schedule(after: 1) {}
        _ = other.schedule(after: 1) {}
        scheduler.schedule(after: 5) { log.entries.append("kept") }
        scheduler.cancel(foreign)  // sequence 0 of `other`; already fired here
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(clock, by: 10) { $0() }
        #expect(log.entries == ["fired", "kept"])
        #expect(clock.now == 11)
    }

    @Test func advanceByZeroOrNegativeRunsOnlyDueTimers() {
        let clock = ManualClock(start: 100)
        let scheduler = TimerScheduler<() -> Void>(clock: clock)
        let log = FiringLog()
        scheduler.schedule(at: 50) { log.entries.append("past@\(clock.now)") }
        scheduler.schedule(at: 101) { log.entries.append("future") }
        scheduler.advance(clock, by: -5) { $0() }
        #expect(log.entries == ["past@100"])
        #expect(clock.now == 100)
        scheduler.advance(clock, by: 0) { $0() }
        #expect(scheduler.pendingCount == 1)
    }
}
