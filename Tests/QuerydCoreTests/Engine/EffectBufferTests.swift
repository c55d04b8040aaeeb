// The effect buffer: pushes (in their own lane) and other effects come out in the order they were
// appended, the buffer is empty after a drain, and its storage is reused.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct EffectBufferTests {
    /// A view to push (any query state will do).
    private static func view() -> QueryView {
        let h = EngineHarness()
        h.set(key("v"), 1)
        return QueryView(h.cache.state(of: key("v"))!)
    }

    private static func describe(_ effect: EngineEffect) -> String {
        switch effect {
        case .push(_, let subscription, _): "push \(subscription.rawValue)"
        case .cancelFetch(let attempt, _): "cancel \(attempt.rawValue)"
        default: "other"
        }
    }

    @Test func pushesAndOtherEffectsComeOutInTheOrderTheyWereAppended() {
        let buffer = EffectBuffer()
        let view = Self.view()
        let connection = ConnectionID(1)
        for round in 0..<3 {
            #expect(buffer.isEmpty)
            buffer.appendPush(view, subscription: SubscriptionID(1), connection: connection)
            buffer.append(.cancelFetch(AttemptID(1), connection: connection))
            for id in 2...100 { buffer.appendPush(view, subscription: SubscriptionID(id), connection: connection) }
            buffer.append(.cancelFetch(AttemptID(2), connection: connection))
            buffer.appendPush(view, subscription: SubscriptionID(101), connection: connection)
            #expect(!buffer.isEmpty)
            let taken = buffer.takeAll().map(Self.describe)
            let expected =
                ["push 1", "cancel 1"] + (2...100).map { "push \($0)" } + ["cancel 2", "push 101"]
            #expect(taken == expected, "round \(round)")
            #expect(buffer.isEmpty)
        }
    }

    @Test func pushesGoToTheirOwnHandler() {
        let buffer = EffectBuffer()
        let view = Self.view()
        buffer.appendPush(view, subscription: SubscriptionID(7), connection: ConnectionID(3))
        buffer.append(.cancelFetch(AttemptID(9), connection: ConnectionID(3)))
        var log: [String] = []
        buffer.drain(pushes: { run in
            while let pushed = run.next() {
                #expect(pushed.view === view)
                log.append("push \(pushed.subscription.rawValue) to \(pushed.connection.rawValue)")
            }
        }) { log.append(Self.describe($0)) }
        #expect(log == ["push 7 to 3", "cancel 9"])
    }

    /// Every pushed view is held exactly until it is taken or dropped: a run stopped half way releases
    /// the rest, and nothing of the buffer keeps a view after a drain.
    @Test func viewsAreReleasedWhetherTakenOrNot() {
        let buffer = EffectBuffer()
        weak var taken: QueryView?
        weak var untaken: QueryView?
        do {
            let first = Self.view()
            let second = Self.view()
            taken = first
            untaken = second
            buffer.appendPush(first, subscription: SubscriptionID(1), connection: ConnectionID(1))
            buffer.appendPush(second, subscription: SubscriptionID(2), connection: ConnectionID(1))
        }
        #expect(taken != nil && untaken != nil, "the buffer holds the views it waits to push")
        var seen: [Int] = []
        buffer.drain(pushes: { run in
            if let first = run.next() { seen.append(first.subscription.rawValue) }
        }) { _ in Issue.record("no other effect was appended") }
        #expect(seen == [1])
        #expect(taken == nil)
        #expect(untaken == nil, "the push left in the run was released with it")
        #expect(buffer.isEmpty)
    }

    /// A run lent out with `forEach(to:_:)` gives each push its own view in order (a view pushed to many
    /// subscriptions one after another is held once), and the views are let go after the drain.
    @Test func aLentRunGivesEachPushItsViewAndTheDrainLetsThemGo() {
        let buffer = EffectBuffer()
        weak var first: QueryView?
        weak var second: QueryView?
        var expected: [(QueryView?, Int)] = []
        do {
            let a = Self.view()
            let b = Self.view()
            first = a
            second = b
            for (view, subscription) in [(a, 1), (a, 2), (b, 3), (a, 4), (a, 5)] {
                buffer.appendPush(view, subscription: SubscriptionID(subscription), connection: ConnectionID(9))
                expected.append((view, subscription))
            }
        }
        var seen: [(QueryView, Int)] = []
        buffer.drain(pushes: { run in
            while let connection = run.nextConnection {
                #expect(connection == ConnectionID(9))
                run.forEach(to: connection) { view, subscription in seen.append((view, subscription.rawValue)) }
            }
        }) { _ in Issue.record("no other effect was appended") }
        #expect(seen.count == expected.count)
        for (got, want) in zip(seen, expected) {
            #expect(got.0 === want.0 && got.1 == want.1)
        }
        expected = []
        seen = []
        #expect(first == nil && second == nil, "nothing of the buffer keeps a view after a drain")
        #expect(buffer.isEmpty)
    }
}
