// Tests of DeadlineQueue: ordering with ties, cancellation, nextDeadline and compaction.

import QuerydTestSupport
import Testing

@testable import QuerydCore

/// Pops every entry due at `now`, in order.
func drain(_ queue: inout DeadlineQueue<String>, now: Int64) -> [String] {
    var out: [String] = []
    while let payload = queue.popDue(now: now) { out.append(payload) }
    return out
}

@Suite struct DeadlineQueueTests {
    @Test func ordersByDeadlineThenInsertion() {
        var queue = DeadlineQueue<String>()
        _ = queue.schedule(at: 30, "c1")
        _ = queue.schedule(at: 10, "a1")
        _ = queue.schedule(at: 20, "b1")
        _ = queue.schedule(at: 10, "a2")
        _ = queue.schedule(at: 30, "c2")
        _ = queue.schedule(at: 10, "a3")
        #expect(queue.count == 6)
        #expect(queue.nextDeadline == 10)
        #expect(queue.popDue(now: 9) == nil)
        #expect(drain(&queue, now: 10) == ["a1", "a2", "a3"])
        #expect(queue.nextDeadline == 20)
        #expect(drain(&queue, now: 100) == ["b1", "c1", "c2"])
        #expect(queue.nextDeadline == nil)
        #expect(queue.count == 0)
    }

    @Test func manyTiesKeepInsertionOrder() {
        var queue = DeadlineQueue<String>()
        var expected: [String] = []
        var rng = SeededGenerator(seed: 7)
        var scheduled: [(deadline: Int64, name: String)] = []
        for i in 0..<500 {
            let deadline = Int64.random(in: 0..<20, using: &rng)
            scheduled.append((deadline, "t\(i)"))
            _ = queue.schedule(at: deadline, "t\(i)")
        }
        for deadline in Int64(0)..<20 {
            expected += scheduled.filter { $0.deadline == deadline }.map(\.name)
        }
        #expect(drain(&queue, now: 20) == expected)
    }

    @Test func cancelledEntriesNeverFire() {
        var queue = DeadlineQueue<String>()
        let a = queue.schedule(at: 10, "a")
        _ = queue.schedule(at: 20, "b")
        let c = queue.schedule(at: 30, "c")
        _ = queue.schedule(at: 40, "d")
        queue.cancel(c)
        #expect(queue.count == 3)
        queue.cancel(a)
        #expect(queue.count == 2)
        #expect(queue.nextDeadline == 20)
        #expect(drain(&queue, now: 100) == ["b", "d"])
    }

    @Test func nextDeadlineSkipsCancelledEntries() {
        var queue = DeadlineQueue<String>()
        let first = queue.schedule(at: 5, "first")
        let second = queue.schedule(at: 5, "second")
        _ = queue.schedule(at: 9, "third")
        queue.cancel(first)
        #expect(queue.nextDeadline == 5)
        queue.cancel(second)
        #expect(queue.nextDeadline == 9)
        #expect(queue.popDue(now: 8) == nil)
        #expect(queue.popDue(now: 9) == "third")
        #expect(queue.nextDeadline == nil)
    }

    @Test func cancellingTwiceOrAfterPopIsANoOp() {
        var queue = DeadlineQueue<String>()
        let a = queue.schedule(at: 1, "a")
        let b = queue.schedule(at: 2, "b")
        #expect(queue.popDue(now: 1) == "a")
        queue.cancel(a)
        #expect(queue.count == 1)
        queue.cancel(b)
        queue.cancel(b)
        #expect(queue.count == 0)
        #expect(queue.nextDeadline == nil)
        _ = queue.schedule(at: 3, "c")
        #expect(drain(&queue, now: 3) == ["c"])
    }

    @Test func compactsWhenMoreThanHalfAreCancelled() {
        var queue = DeadlineQueue<String>()
        var tokens: [DeadlineToken] = []
        for i in 0..<1000 { tokens.append(queue.schedule(at: Int64(1000 - i), "e\(i)")) }
        // Cancel entries deep in the heap (late deadlines), so they are not dropped from the top.
        for i in 0..<500 { queue.cancel(tokens[i]) }
        #expect(queue.count == 500)
        #expect(queue.storedCount == 1000)
        queue.cancel(tokens[500])
        #expect(queue.count == 499)
        #expect(queue.storedCount == 499)
        #expect(queue.nextDeadline == 1)
        let fired = drain(&queue, now: 2000)
        #expect(fired == (501..<1000).reversed().map { "e\($0)" })
    }

    @Test func storageStaysBoundedUnderScheduleCancelChurn() {
        var queue = DeadlineQueue<String>()
        _ = queue.schedule(at: 1, "keep")
        for i in 0..<10_000 {
            let token = queue.schedule(at: Int64(100 + i), "x")
            queue.cancel(token)
            #expect(queue.storedCount <= 2 * queue.count + 1)
        }
        #expect(queue.count == 1)
        #expect(drain(&queue, now: .max) == ["keep"])
    }
}
