// `mutator.*`, `mutation.*`, `mutations.list` and `mutations.clear`: serving mutations, running
// them through the daemon (optimistic writes, retries, invalidation), watching and clearing them.

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
        ("mutations.clear", nil, clear),
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

    /// `mutations.list {filter?, cursor?, limit?}`: without `cursor`, every match as an array; with
    /// one (`null` to start), a page `{"mutations": [...], "nextCursor": s}` in submission order (no
    /// `nextCursor` on the last page). A cursor is the last listed mutation's id in decimal.
    static func list(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["filter", "cursor", "limit"])
        let states = call.server.mutations.list(try mutationFilter(call.params))
        guard let cursor = call.params["cursor"] else {
            if call.params["limit"] != nil { throw Params.invalid("limit", "only with \"cursor\"") }
            call.reply.succeed(.array(states.map(\.jsonValue)))
            return
        }
        var after = 0
        if cursor != .null {
            guard let text = cursor.stringValue, let id = Int(text), id >= 0, String(id) == text else {
                throw Params.invalid("cursor", "must be null or a nextCursor returned by mutations.list")
            }
            after = id
        }
        let limit = try call.params.optionalInt("limit") ?? ListCursor.defaultLimit
        guard (1...ListCursor.maxLimit).contains(limit) else {
            throw Params.invalid("limit", "must be an integer from 1 to \(ListCursor.maxLimit)")
        }
        let rest = states.drop { $0.id.rawValue <= after }
        let page = rest.prefix(limit)
        var result: [String: JSONValue] = ["mutations": .array(page.map(\.jsonValue))]
        if rest.count > limit, let last = page.last { result["nextCursor"] = .string(String(last.id.rawValue)) }
        call.reply.succeed(.object(result))
    }

    /// `mutations.clear`: forgets settled mutations and cancels paused ones (`{cleared: n}`).
    static func clear(_ call: MethodCall) throws(RPCError) {
        try call.params.expect([])
        let cleared = call.server.mutations.clear()
        call.reply.succeed(["cleared": .number(JSONNumber(cleared))])
    }

    static func mutationFilter(_ params: Params) throws(RPCError) -> MutationFilter {
        do { return try MutationFilter(json: params["filter"]) } catch { throw Params.invalid(error) }
    }
}
