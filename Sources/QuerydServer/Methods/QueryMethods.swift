// `query.*`: one query at a time — fetch, ensure, prefetch, read, write, subscribe, refetch, cancel.

import QuerydCore
import QuerydJSON
import QuerydRPC

extension PushMode {
    /// The shape of the state a subscribe or setOptions reply carries in this mode.
    var replyShape: StateShape {
        switch self {
        case .state: .standard
        case .meta: .withoutData
        case .patch: .withDataVersion
        }
    }
}

enum QueryMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("query.fetch", nil, { call throws(RPCError) in try fetch(call, mode: .fetch) }),
        ("query.ensure", nil, { call throws(RPCError) in try fetch(call, mode: .ensure) }),
        ("query.prefetch", nil, prefetch),
        ("query.get", nil, get),
        ("query.state", nil, state),
        ("query.set", nil, set),
        ("query.subscribe", nil, subscribe),
        ("query.setOptions", nil, setOptions),
        ("query.unsubscribe", nil, unsubscribe),
        ("query.refetch", nil, refetch),
        ("query.cancel", nil, cancel),
        ("query.fetchNextPage", nil, { call throws(RPCError) in try fetchPage(call, .forward) }),
        ("query.fetchPreviousPage", nil, { call throws(RPCError) in try fetchPage(call, .backward) }),
    ]

    static func fetch(_ call: MethodCall, mode: FetchMode) throws(RPCError) {
        try call.params.expect(["key", "options"])
        let key = try call.params.key()
        let options = try call.params.options()
        try call.awaitAnswer { waiter throws(CacheFailure) in
            try call.cache.fetch(key: key, options: options, mode: mode, waiter: waiter)
            return true
        }
    }

    static func prefetch(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["key", "options"])
        let key = try call.params.key()
        let options = try call.params.options()
        do { try call.cache.prefetch(key: key, options: options) } catch { throw RPCError(failure: error) }
        call.reply.succeed([:])
    }

    static func get(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["key"])
        if let query = call.cache.query(try call.params.key()), query.hasData {
            call.reply.succeed(writing: { _ = query.writeGetAnswer(to: &$0) })
        } else {
            call.reply.succeed(.null)
        }
    }

    static func state(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["key"])
        if let result = call.cache.state(of: try call.params.key()) {
            call.reply.succeed(writing: { result.write(to: &$0) })
        } else {
            call.reply.succeed(.null)
        }
    }

    static func set(_ call: MethodCall) throws(RPCError) {
        let params = call.params
        try params.expect(["key", "data", "mergePatch", "updatedAt", "ifVersion"])
        let key = try params.key()
        let write = try params.write()
        let updatedAt = try params.optionalInt("updatedAt").map(Int64.init)
        let ifVersion = try params.optionalInt("ifVersion").map(UInt64.init)
        do {
            let result = try call.cache.set(key: key, write, updatedAt: updatedAt, ifVersion: ifVersion)
            // Subscriptions of this connection with `echo: false` are not pushed this change (its
            // pushes are queued once the effects are applied).
            call.server.applyEffects()
            call.session.outbox.dropEchoes(ofWriteTo: key)
            call.server.cluster?.wroteData(to: key)
            call.reply.succeed(writing: { result.write(to: &$0) })
        } catch  where error.code == RPCErrorCode.limitExceeded.rawValue {
            throw .dataTooLarge(bytes: error.data?["bytes"]?.intValue ?? 0, configuration: call.server.configuration)
        } catch {
            throw RPCError(failure: error)
        }
    }

    static func subscribe(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["key", "options"])
        let key = try call.params.key()
        let options = try call.params.options()
        let id: SubscriptionID
        let result: QueryResult
        do {
            (id, result) = try call.cache.subscribe(connection: call.session.connection, key: key, options: options)
        } catch {
            throw RPCError(failure: error)
        }
        let shape = registerDelivery(of: id, call, reply: result)
        call.reply.succeed(writing: { out in
            out.append(contentsOf: #"{"state":"#.utf8)
            result.write(to: &out, shape: shape)
            out.append(contentsOf: #","subscription":"#.utf8)
            out.append(contentsOf: String(id.rawValue).utf8)
            out.append(UInt8(ascii: "}"))
        })
    }

    static func setOptions(_ call: MethodCall) throws(RPCError) {
        let params = call.params
        try params.expect(["subscription", "key", "options"])
        let id = SubscriptionID(try params.int("subscription"))
        let key = try params.optionalKey()
        let options = params["options"] == nil ? nil : try params.options()
        do {
            let connection = call.session.connection
            let result = try call.cache.setOptions(id, connection: connection, key: key, options: options)
            call.session.outbox.dropPushes(of: id)
            let shape = registerDelivery(of: id, call, reply: result)
            call.reply.succeed(writing: { result.write(to: &$0, shape: shape) })
        } catch {
            throw RPCError(failure: error)
        }
    }

    /// Tells the outbox how subscription `id` is pushed to (protocol 2's `push` and `echo`), its
    /// reply `result` being the first state its client holds; returns the reply's state shape.
    private static func registerDelivery(of id: SubscriptionID, _ call: MethodCall, reply result: QueryResult)
        -> StateShape
    {
        let (push, echo) = call.cache.delivery(of: id, connection: call.session.connection) ?? (.state, true)
        if push != .state || !echo { call.session.outbox.setDelivery(of: id, push: push, echo: echo, reply: result) }
        return push.replyShape
    }

    static func unsubscribe(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["subscription"])
        let id = SubscriptionID(try call.params.int("subscription"))
        do {
            try call.cache.unsubscribe(id, connection: call.session.connection)
        } catch {
            throw RPCError(failure: error)
        }
        call.session.outbox.dropPushes(of: id)
        call.reply.succeed([:])
    }

    static func refetch(_ call: MethodCall) throws(RPCError) {
        let params = call.params
        try params.expect(["subscription", "key", "cancelRefetch"])
        let cancelRefetch = try params.bool("cancelRefetch", default: true)
        switch (params["subscription"], params["key"]) {
        case (.some, nil):
            let id = SubscriptionID(try params.int("subscription"))
            try call.awaitAnswer { waiter throws(CacheFailure) in
                try call.cache.refetch(
                    subscription: id, connection: call.session.connection, cancelRefetch: cancelRefetch,
                    waiter: waiter)
                return true
            }
        case (nil, .some):
            let key = try params.key()
            try call.awaitAnswer { waiter in
                call.cache.refetch(key: key, cancelRefetch: cancelRefetch, waiter: waiter)
            }
        default:
            throw Params.invalid("subscription", "give exactly one of subscription and key")
        }
    }

    /// `query.fetchNextPage` / `query.fetchPreviousPage` for a subscription or a cached key.
    static func fetchPage(_ call: MethodCall, _ direction: PageDirection) throws(RPCError) {
        let params = call.params
        try params.expect(["subscription", "key", "cancelRefetch"])
        let cancelRefetch = try params.bool("cancelRefetch", default: true)
        let subscription = try params.optionalInt("subscription").map(SubscriptionID.init)
        let key = try params.optionalKey()
        guard (subscription == nil) != (key == nil) else {
            throw Params.invalid("subscription", "give exactly one of subscription and key")
        }
        try call.awaitAnswer { waiter throws(CacheFailure) in
            if let subscription {
                try call.cache.fetchPage(
                    direction, subscription: subscription, connection: call.session.connection,
                    cancelRefetch: cancelRefetch, waiter: waiter)
                return true
            }
            return try call.cache.fetchPage(direction, key: key!, cancelRefetch: cancelRefetch, waiter: waiter)
        }
    }

    static func cancel(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["key", "revert"])
        call.cache.cancel(key: try call.params.key(), revert: try call.params.bool("revert", default: true))
        call.reply.succeed([:])
    }
}
