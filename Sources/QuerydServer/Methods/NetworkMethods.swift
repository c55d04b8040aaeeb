// `network.setOnline`: the daemon-wide network state. Offline pauses new and retrying mutations
// and fetches; back online, paused mutations resume first (in submission order), then paused
// fetches continue and stale queries refetch (TanStack's order, B114).

import QuerydCore
import QuerydJSON
import QuerydRPC

enum NetworkMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("network.setOnline", nil, setOnline)
    ]

    static func setOnline(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["online"])
        guard case .bool(let online)? = call.params["online"] else {
            throw Params.invalid("online", "required: a boolean")
        }
        call.cache.setOnline(online)
        call.reply.succeed([:])
    }
}
