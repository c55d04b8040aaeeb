// `clock.*` (only with --manual-clock): move the virtual clock; due timers fire in order during
// the advance, and what they send is queued before the advance's own answer, which waits for the
// sweeps they began (a gc of many queries) to end.

import QuerydCore
import QuerydJSON
import QuerydRPC

enum ClockMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("clock.advance", .manualClock, advance),
        ("clock.now", .manualClock, now),
    ]

    static func advance(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["ms"])
        let ms = try call.params.int("ms")
        guard let clock = call.server.manualClock else { throw RPCError(.methodNotFound) }
        call.cache.advance(clock, by: Int64(ms))
        call.server.answerAfterSweeps(call.reply, ["now": .number(JSONNumber(clock.now))], session: call.session)
    }

    static func now(_ call: MethodCall) throws(RPCError) {
        try call.params.expect([])
        guard let clock = call.server.manualClock else { throw RPCError(.methodNotFound) }
        call.reply.succeed(["now": .number(JSONNumber(clock.now))])
    }
}
