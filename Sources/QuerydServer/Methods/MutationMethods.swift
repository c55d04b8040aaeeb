// `mutator.*`, `mutation.*` and `mutations.list`: serving mutations, running them through the
// daemon (optimistic writes, retries, invalidation), and watching them.

import QuerydCore
import QuerydJSON
import QuerydRPC

enum MutationMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("mutator.register", nil, register),
        ("mutator.unregister", nil, unregister),
        ("mutation.run", nil, run),
        ("mutation.subscribe", nil, subscribe),
        ("mutation.unsubscribe", nil, unsubscribe),
        ("mutations.list", nil, list),
    ]

    static func register(_ call: MethodCall) throws(RPCError) {
        let params = call.params
        try params.expect(["key", "exact"])
        guard case .array(let prefix)? = params["key"] else { throw Params.invalid("key", "required: a JSON array") }
        let exact = try params.bool("exact", default: false)
        if exact, prefix.isEmpty { throw Params.invalid("exact", "an exact mutator needs a non-empty key") }
        let id = call.server.mutations.registerMutator(
            connection: call.session.connection, prefix: prefix, exact: exact)
        call.reply.succeed(["mutator": .number(JSONNumber(id.rawValue))])
    }

    static func unregister(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["mutator"])
        let id = MutatorID(try call.params.int("mutator"))
        do {
            try call.server.mutations.unregisterMutator(id, connection: call.session.connection)
        } catch {
            throw RPCError(failure: error)
        }
        call.reply.succeed([:])
    }

    static func run(_ call: MethodCall) throws(RPCError) {
        let params = call.params
        try params.expect(["key", "variables", "options"])
        let key = try params.key()
        let options: MutationOptions
        do { options = try call.server.mutations.options(for: key, json: params["options"]) } catch {
            throw Params.invalid(error)
        }
        // Waits for the settlement; a `$/cancelRequest` answers the caller but the mutation goes on.
        try call.awaitAnswer(cancellable: false) { waiter throws(CacheFailure) in
            try call.server.mutations.run(
                connection: call.session.connection, key: key, variables: params["variables"] ?? .null,
                options: options, waiter: waiter)
            return true
        }
    }

    static func subscribe(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["filter"])
        let filter = try mutationFilter(call.params)
        let (id, states) = call.server.mutations.subscribe(connection: call.session.connection, filter: filter)
        call.reply.succeed([
            "subscription": .number(JSONNumber(id.rawValue)), "mutations": .array(states.map(\.jsonValue)),
        ])
    }

    static func unsubscribe(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["subscription"])
        let id = SubscriptionID(try call.params.int("subscription"))
        do {
            try call.server.mutations.unsubscribe(id, connection: call.session.connection)
        } catch {
            throw RPCError(failure: error)
        }
        call.session.outbox.dropMutationPushes(of: id)
        call.reply.succeed([:])
    }

    static func list(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["filter"])
        let states = call.server.mutations.list(try mutationFilter(call.params))
        call.reply.succeed(.array(states.map(\.jsonValue)))
    }

    static func mutationFilter(_ params: Params) throws(RPCError) -> MutationFilter {
        do { return try MutationFilter(json: params["filter"]) } catch { throw Params.invalid(error) }
    }
}
