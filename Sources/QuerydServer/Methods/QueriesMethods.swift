// `queries.*`: operations over every query a filter matches.

import QuerydCore
import QuerydJSON
import QuerydRPC

enum QueriesMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("queries.invalidate", nil, invalidate),
        ("queries.refetch", nil, { call throws(RPCError) in try matched(call) { $0.refetchQueries($1) } }),
        ("queries.cancel", nil, { call throws(RPCError) in try matched(call) { $0.cancelQueries($1) } }),
        ("queries.remove", nil, { call throws(RPCError) in try matched(call) { $0.removeQueries($1) } }),
        ("queries.reset", nil, { call throws(RPCError) in try matched(call) { $0.resetQueries($1) } }),
        ("queries.list", nil, list),
    ]

    static func invalidate(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["filter", "refetchType"])
        let filter = try call.params.filter()
        var refetchType = RefetchType.active
        if let member = call.params["refetchType"] {
            guard let text = member.stringValue, let type = RefetchType(rawValue: text) else {
                throw Params.invalid("refetchType", "must be \"active\", \"inactive\", \"all\" or \"none\"")
            }
            refetchType = type
        }
        let count = call.cache.invalidate(filter, refetchType: refetchType)
        call.reply.succeed(["matched": .number(JSONNumber(count))])
    }

    private static func matched(_ call: MethodCall, _ operation: (QueryCache, QueryFilter) -> Int) throws(RPCError) {
        try call.params.expect(["filter"])
        let count = operation(call.cache, try call.params.filter())
        call.reply.succeed(["matched": .number(JSONNumber(count))])
    }

    static func list(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["filter"])
        let results = call.cache.list(try call.params.filter())
        call.reply.succeed(writing: { out in
            out.append(UInt8(ascii: "["))
            for (index, result) in results.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                result.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        })
    }
}
