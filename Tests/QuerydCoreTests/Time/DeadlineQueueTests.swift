// Tests of DeadlineQueue: ordering with ties, cancellation, nextDeadline and the rebuild in steps.

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

    @Test func cancellingReleasesThePayloadAtOnce() {
        // The entry stays in the heap (it is not the top), but nothing keeps its payload: a closed
        // connection's cancelled stale timers must not hold their subscriptions until the heap
        // is rebuilt, and moving entries during a rebuild must not retain or release payloads.
        final class Marker {}
        var queue = DeadlineQueue<Marker>()
        _ = queue.schedule(at: 1, Marker())
        weak var released: Marker?
        let token: DeadlineToken = {
            let marker = Marker()
            released = marker
            return queue.schedule(at: 2, marker)
        }()
        #expect(released != nil)
        queue.cancel(token)
        #expect(released == nil)
        #expect(queue.storedCount == 2)
        #expect(queue.count == 1)
        // The freed slot is reused, and the cancelled entry still never comes out.
        let reused = Marker()
        _ = queue.schedule(at: 3, reused)
        #expect(queue.popDue(now: 10) != nil)
        #expect(queue.popDue(now: 10) === reused)
        #expect(queue.popDue(now: 10) == nil)
        #expect(queue.count == 0)
    }

    @Test func aBurstOfTimersLeavesNoStorageOnceAllAreGone() {
        var queue = DeadlineQueue<String>()
        var tokens: [DeadlineToken] = []
        for i in 0..<10_000 { tokens.append(queue.schedule(at: Int64(i), "e\(i)")) }
        for token in tokens.prefix(5_000) { queue.cancel(token) }
        #expect(drain(&queue, now: 10_000).count == 5_000)
        #expect(queue.count == 0)
        #expect(queue.largestBlock == 0)
        _ = queue.schedule(at: 1, "again")
        #expect(drain(&queue, now: 1) == ["again"])
    }

    @Test func storageGrowsInPieces() {
        // 200,000 fetch attempts started together schedule 200,000 timeouts: no block of the
        // queue's storage may be made for all of them (its growth would copy or rehash them all).
        var queue = DeadlineQueue<String>()
        var tokens: [DeadlineToken] = []
        for i in 0..<50_000 { tokens.append(queue.schedule(at: Int64(i % 97), "e\(i)")) }
        #expect(queue.largestBlock < 8_192)
        for token in tokens.prefix(40_000) { queue.cancel(token) }
        #expect(queue.largestBlock < 8_192)
        #expect(queue.count == 10_000)
        let expected = (40_000..<50_000).sorted { ($0 % 97, $0) < ($1 % 97, $1) }.map { "e\($0)" }
        #expect(drain(&queue, now: 96) == expected)
        #expect(queue.count == 0)
    }

    @Test func rebuildsInBoundedStepsWhenMoreThanHalfAreCancelled() {
        var queue = DeadlineQueue<String>()
        var tokens: [DeadlineToken] = []
        for i in 0..<10_000 { tokens.append(queue.schedule(at: Int64(10_000 - i), "e\(i)")) }
        // Cancel entries deep in the heap (late deadlines), so they are not dropped from the top.
        for i in 0..<5_000 { queue.cancel(tokens[i]) }
        #expect(queue.count == 5_000)
        #expect(queue.storedCount == 10_000)
        // From here on each cancel moves a bounded number of entries to the new heap (the whole
        // heap was rebuilt in this one cancel before: 10,000 → 4,999).
        var operations = 0
        for i in 5_000..<6_000 {
            let stored = queue.storedCount
            queue.cancel(tokens[i])
            operations += 1
            #expect(stored - queue.storedCount <= min(DeadlineQueue<String>.rebuildStep, 64))
            if !queue.isRebuilding { break }
        }
        #expect(!queue.isRebuilding)
        #expect(operations > 10_000 / 65)
        // What is left over is what was cancelled after the rebuild had moved it.
        #expect(queue.storedCount - queue.count < operations)
        #expect(queue.nextDeadline == 1)
        let fired = drain(&queue, now: 20_000)
        #expect(fired == (5_000 + operations..<10_000).reversed().map { "e\($0)" })
    }

    @Test func popsInOrderWhileRebuilding() {
        var queue = DeadlineQueue<String>()
        var model: [(deadline: Int64, sequence: Int, name: String, token: DeadlineToken)] = []
        var rng = SeededGenerator(seed: 11)
        var sequence = 0
        var rebuilds = 0
        var now: Int64 = 0
        for _ in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                let deadline = now + Int64.random(in: 0..<500, using: &rng)
                let token = queue.schedule(at: deadline, "t\(sequence)")
                model.append((deadline, sequence, "t\(sequence)", token))
                sequence += 1
            case 4..<8:
                guard !model.isEmpty else { continue }
                let index = Int.random(in: 0..<model.count, using: &rng)
                queue.cancel(model.remove(at: index).token)
            default:
                now += Int64.random(in: 0..<20, using: &rng)
                let due = model.filter { $0.deadline <= now }.sorted {
                    ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence)
                }
                #expect(drain(&queue, now: now) == due.map(\.name))
                model.removeAll { $0.deadline <= now }
            }
            if queue.isRebuilding { rebuilds += 1 }
            #expect(queue.count == model.count)
            #expect(queue.nextDeadline == model.map(\.deadline).min())
        }
        #expect(rebuilds > 100)
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
