// `client.setFocused` (this connection's focus, TanStack's window focus) and `events.emit`
// (named refetch triggers, beyond TanStack: subscriptions list event names in `refetchOn`).

import QuerydCore
import QuerydJSON
import QuerydRPC

enum ClientMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("client.setFocused", nil, setFocused),
        ("events.emit", nil, emit),
    ]

    static func setFocused(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["focused"])
        guard case .bool(let focused)? = call.params["focused"] else {
            throw Params.invalid("focused", "required: a boolean")
        }
        call.cache.setFocused(focused, connection: call.session.connection)
        call.reply.succeed([:])
    }

    static func emit(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["name"])
        guard let name = call.params["name"]?.stringValue, !name.isEmpty else {
            throw Params.invalid("name", "required: a non-empty string")
        }
        call.reply.succeed(["matched": .number(JSONNumber(call.cache.emit(name)))])
    }
}
