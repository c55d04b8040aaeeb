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
        buffer.drain(push: { pushed, subscription, connection in
            #expect(pushed === view)
            log.append("push \(subscription.rawValue) to \(connection.rawValue)")
        }) { log.append(Self.describe($0)) }
        #expect(log == ["push 7 to 3", "cancel 9"])
    }
}
