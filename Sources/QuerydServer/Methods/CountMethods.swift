// `queries.count`, `mutations.count` and `count.unsubscribe`: how many queries or mutations a filter
// matches, once or as a subscription pushed `count.changed` (see CountWatches.swift).

import QuerydCore
import QuerydJSON
import QuerydRPC

enum CountMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("queries.count", nil, { call throws(RPCError) in try count(call, mutations: false) }),
        ("mutations.count", nil, { call throws(RPCError) in try count(call, mutations: true) }),
        ("count.unsubscribe", nil, unsubscribe),
    ]

    /// `{filter?, subscribe?}` -> `{count}`, plus `subscription` when subscribing.
    private static func count(_ call: MethodCall, mutations: Bool) throws(RPCError) {
        try call.params.expect(["filter", "subscribe"])
        let counted: CountedSet =
            mutations ? .mutations(try MutationMethods.mutationFilter(call.params)) : .queries(try call.params.filter())
        let count = call.server.count(counted)
        guard try call.params.bool("subscribe", default: false) else {
            call.reply.succeed(["count": .number(JSONNumber(count))])
            return
        }
        let session = call.session
        let max = call.server.configuration.maxSubscriptionsPerConnection
        if session.subscriptionCount >= max { throw .limitExceeded("max-subscriptions-per-connection", max: max) }
        let id = call.server.countWatches.add(counted, connection: session.connection, count: count)
        session.subscriptionCount += 1
        call.reply.succeed(["count": .number(JSONNumber(count)), "subscription": .number(JSONNumber(id))])
    }

    /// `count.unsubscribe {subscription}` -> `{}`; no more `count.changed` for it.
    private static func unsubscribe(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["subscription"])
        let id = try call.params.int("subscription")
        guard call.server.countWatches.remove(id, connection: call.session.connection) else {
            throw RPCError(failure: .unknownID("subscription", id))
        }
        call.session.subscriptionCount -= 1
        call.reply.succeed([:])
    }
}
