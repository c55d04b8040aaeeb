// Tests of DeadlineBuckets: members sharing a deadline share one bucket, come out in the order
// they were added, and cancelling (or moving to another deadline) keeps them from coming out.

import Testing

@testable import QuerydCore

/// A member with a name, to see which ones come out.
private final class Waiter: DeadlineMember {
    let name: String
    var bucketNumber: UInt32 = 0
    var bucketSlot: UInt32 = 0

    init(_ name: String) {
        self.name = name
    }
}

/// The buckets behind a reference, so `#expect` can call their mutating methods.
private final class Buckets {
    var inner = DeadlineBuckets<Waiter>()

    var bucketCount: Int { inner.bucketCount }
    func add(_ member: Waiter, at deadline: Int64) -> Bool { inner.add(member, at: deadline) }
    func setTimer(_ timer: TimerHandle, for deadline: Int64) { inner.setTimer(timer, for: deadline) }
    @discardableResult
    func cancel(_ member: Waiter) -> TimerHandle? { inner.cancel(member) }
    func takeDue(_ deadline: Int64) -> [Waiter] { inner.takeDue(deadline) }
    func takeDue(_ deadline: Int64, limit: Int) -> (due: [Waiter], more: Bool) {
        inner.takeDue(deadline, limit: limit)
    }
    func deadline(of member: Waiter) -> Int64? { inner.deadline(of: member) }

    /// Adds `count` new waiters, named `w0`, `w1`, …, at `deadline`.
    func addWaiters(_ count: Int, at deadline: Int64) -> [Waiter] {
        (0..<count).map { i in
            let waiter = Waiter("w\(i)")
            _ = inner.add(waiter, at: deadline)
            return waiter
        }
    }
}

@Suite struct DeadlineBucketsTests {
    @Test func membersWithOneDeadlineShareABucketAndComeOutInOrder() {
        let buckets = Buckets()
        let a = Waiter("a")
        let b = Waiter("b")
        let c = Waiter("c")
        #expect(buckets.add(a, at: 100))
        #expect(!buckets.add(b, at: 100))
        #expect(buckets.add(c, at: 200))
        #expect(buckets.bucketCount == 2)
        #expect(buckets.takeDue(100).map(\.name) == ["a", "b"])
        #expect(buckets.deadline(of: a) == nil && buckets.deadline(of: b) == nil)
        #expect(buckets.deadline(of: c) == 200)
        #expect(buckets.takeDue(100).isEmpty)
        #expect(buckets.bucketCount == 1)
    }

    @Test func cancellingSkipsTheMemberAndTheLastOneHandsBackTheTimer() {
        let clock = ManualClock(start: 0)
        let scheduler = TimerScheduler<() -> Void>(clock: clock)
        let buckets = Buckets()
        let a = Waiter("a")
        let b = Waiter("b")
        #expect(buckets.add(a, at: 100))
        let timer = scheduler.schedule(at: 100) {}
        buckets.setTimer(timer, for: 100)
        #expect(!buckets.add(b, at: 100))
        #expect(buckets.cancel(a) == nil)
        #expect(buckets.deadline(of: a) == nil)
        #expect(buckets.cancel(a) == nil)
        #expect(buckets.cancel(b) == timer)
        #expect(buckets.bucketCount == 0)
        #expect(buckets.takeDue(100).isEmpty)
    }

    @Test func movingAMemberToAnotherDeadlineTakesItOutOfTheFirst() {
        let buckets = Buckets()
        let a = Waiter("a")
        let b = Waiter("b")
        #expect(buckets.add(a, at: 100))
        #expect(!buckets.add(b, at: 100))
        #expect(buckets.add(a, at: 300))
        #expect(buckets.takeDue(100).map(\.name) == ["b"])
        #expect(buckets.takeDue(300).map(\.name) == ["a"])
    }

    @Test func aFreedBucketNumberIsReusedWithoutRevivingItsOldEntries() {
        let buckets = Buckets()
        let a = Waiter("a")
        let b = Waiter("b")
        #expect(buckets.add(a, at: 100))
        #expect(!buckets.add(b, at: 100))
        #expect(buckets.add(a, at: 200))
        #expect(buckets.takeDue(100).map(\.name) == ["b"])
        // Bucket 100's number is free again; the new deadline takes it, and only its own member
        // comes out of it.
        #expect(buckets.add(b, at: 300))
        #expect(buckets.deadline(of: b) == 300 && buckets.deadline(of: a) == 200)
        #expect(buckets.takeDue(300).map(\.name) == ["b"])
        #expect(buckets.takeDue(200).map(\.name) == ["a"])
        #expect(buckets.bucketCount == 0)
    }

    @Test func theNewestBucketEmptiedAndItsNumberReusedIsNotAddedToAgain() {
        let buckets = Buckets()
        let a = Waiter("a")
        let b = Waiter("b")
        let c = Waiter("c")
        #expect(buckets.add(a, at: 100))
        #expect(buckets.add(b, at: 200))
        // The newest bucket (200) empties; its number goes to a new bucket of an older deadline.
        buckets.cancel(b)
        #expect(buckets.add(c, at: 50))
        // Deadline 200 has no bucket any more: adding to it makes one (a timer to schedule).
        #expect(buckets.add(b, at: 200))
        #expect(!buckets.add(a, at: 200))
        #expect(buckets.takeDue(50).map(\.name) == ["c"])
        #expect(buckets.takeDue(100).isEmpty)
        #expect(buckets.takeDue(200).map(\.name) == ["b", "a"])
        #expect(buckets.bucketCount == 0)
    }

    @Test func reAddingToTheSameDeadlineMovesTheMemberToTheEnd() {
        let buckets = Buckets()
        let a = Waiter("a")
        let b = Waiter("b")
        #expect(buckets.add(a, at: 100))
        #expect(!buckets.add(b, at: 100))
        #expect(!buckets.add(a, at: 100))
        #expect(buckets.takeDue(100).map(\.name) == ["b", "a"])
    }

    @Test func aMemberCancelledAndAddedBackComesOutOnceInItsNewPlace() {
        let buckets = Buckets()
        let a = Waiter("a")
        let b = Waiter("b")
        #expect(buckets.add(a, at: 100))
        #expect(!buckets.add(b, at: 100))
        buckets.cancel(a)
        #expect(!buckets.add(a, at: 100))
        #expect(buckets.takeDue(100).map(\.name) == ["b", "a"])
    }

    @Test func anOlderBucketTrimmedWhenANewerOneStartsKeepsGrowingInOrder() {
        let buckets = Buckets()
        let early = (0..<20).map { Waiter("e\($0)") }
        for waiter in early { _ = buckets.add(waiter, at: 100) }
        #expect(buckets.add(Waiter("late"), at: 200))
        let extra = Waiter("extra")
        #expect(!buckets.add(extra, at: 100))
        buckets.cancel(early[3])
        #expect(buckets.takeDue(100).map(\.name) == early.map(\.name).filter { $0 != "e3" } + ["extra"])
    }

    @Test func compactionKeepsOrderAndSlots() {
        let buckets = Buckets()
        let waiters = (0..<40).map { Waiter("w\($0)") }
        for waiter in waiters { _ = buckets.add(waiter, at: 100) }
        for waiter in waiters[..<30] { buckets.cancel(waiter) }
        _ = buckets.add(waiters[0], at: 100)
        #expect(buckets.takeDue(100).map(\.name) == (30..<40).map { "w\($0)" } + ["w0"])
    }

    @Test func manyCancellationsDoNotKeepStaleReferences() {
        let buckets = Buckets()
        let keeper = Waiter("keeper")
        #expect(buckets.add(keeper, at: 100))
        weak var gone: Waiter?
        do {
            let waiters = buckets.addWaiters(100, at: 100)
            gone = waiters[0]
            for waiter in waiters { buckets.cancel(waiter) }
        }
        #expect(gone == nil)
        #expect(buckets.takeDue(100).map(\.name) == ["keeper"])
    }

    /// A bucket of many members is taken a bounded slice at a time (issue 20: 5,000,000 queries due
    /// at one deadline must not be one step); members cancelled or added meanwhile are respected.
    @Test func aBigBucketIsTakenInSlicesOfTheLimit() {
        let buckets = Buckets()
        let waiters = (0..<10).map { Waiter("w\($0)") }
        for waiter in waiters { _ = buckets.add(waiter, at: 100) }
        let first = buckets.takeDue(100, limit: 4)
        #expect(first.due.map(\.name) == ["w0", "w1", "w2", "w3"])
        #expect(first.more)
        #expect(buckets.bucketCount == 1)
        buckets.cancel(waiters[5])
        let late = Waiter("late")
        #expect(!buckets.add(late, at: 100))
        let second = buckets.takeDue(100, limit: 4)
        #expect(second.due.map(\.name) == ["w4", "w6", "w7", "w8"])
        #expect(second.more)
        let third = buckets.takeDue(100, limit: 4)
        #expect(third.due.map(\.name) == ["w9", "late"])
        #expect(!third.more)
        #expect(buckets.bucketCount == 0)
        #expect(waiters.allSatisfy { buckets.deadline(of: $0) == nil })
    }

    @Test func aBucketWhoseRestIsCancelledEndsTheSlices() {
        let buckets = Buckets()
        let waiters = (0..<6).map { Waiter("w\($0)") }
        for waiter in waiters { _ = buckets.add(waiter, at: 100) }
        #expect(buckets.takeDue(100, limit: 3).more)
        for waiter in waiters.suffix(3) { buckets.cancel(waiter) }
        #expect(buckets.bucketCount == 0)
        let rest = buckets.takeDue(100, limit: 3)
        #expect(rest.due.isEmpty)
        #expect(!rest.more)
    }

    /// The buckets hold their members by hand-counted references (`Unmanaged`): every member is
    /// kept while it waits and let go once taken, cancelled and compacted away, or dropped with its
    /// bucket, never earlier and never twice.
    @Test func bucketsKeepWaitingMembersAndLetGoOfTheRest() {
        let buckets = Buckets()
        weak var cancelled: Waiter?
        weak var movedAway: Waiter?
        weak var leftInABucketDropped: Waiter?
        var kept: [Waiter] = []
        do {
            let added = buckets.addWaiters(1_000, at: 10)
            cancelled = added[1]
            movedAway = added[2]
            // Cancelling most of the bucket compacts it, dropping the stale entries.
            for waiter in added[1..<900] where waiter !== added[2] { buckets.cancel(waiter) }
            _ = buckets.add(added[2], at: 20)
            let other = Waiter("alone")
            leftInABucketDropped = other
            _ = buckets.add(other, at: 30)
            buckets.cancel(other)
            kept = [added[0]] + Array(added[900...])
        }
        #expect(cancelled == nil)
        #expect(leftInABucketDropped == nil)
        #expect(movedAway != nil)
        #expect(buckets.deadline(of: movedAway!) == 20)
        let first = buckets.takeDue(10, limit: 50)
        #expect(first.due.map(\.name) == kept.prefix(50).map(\.name))
        #expect(first.more)
        let rest = buckets.takeDue(10, limit: .max)
        #expect(rest.due.map(\.name) == kept.dropFirst(50).map(\.name))
        #expect(!rest.more)
        #expect(buckets.takeDue(20).map(\.name) == ["w2"])
        #expect(movedAway == nil)
        weak var lastOne: Waiter?
        do {
            let waiter = Waiter("last")
            lastOne = waiter
            _ = buckets.add(waiter, at: 40)
        }
        #expect(lastOne != nil)
        #expect(buckets.takeDue(40).map(\.name) == ["last"])
        #expect(lastOne == nil)
        #expect(buckets.bucketCount == 0)
    }
}
