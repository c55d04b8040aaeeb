// `test.*` (only with --test-methods): the JSON-RPC 2.0 specification's example methods
// (subtract, sum, get_data, and an echo), so its examples can be replayed against the daemon.

import QuerydJSON
import QuerydRPC

enum TestMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("test.subtract", .testMethods, subtract),
        ("test.sum", .testMethods, sum),
        ("test.getData", .testMethods, { call throws(RPCError) in call.reply.succeed(["hello", 5]) }),
        ("test.echo", .testMethods, { call throws(RPCError) in call.reply.succeed(call.params.raw ?? .null) }),
    ]

    static func subtract(_ call: MethodCall) throws(RPCError) {
        let minuend: JSONValue?
        let subtrahend: JSONValue?
        if case .array(let items)? = call.params.raw {
            guard items.count == 2 else { throw Params.invalid("params", "expected [minuend, subtrahend]") }
            (minuend, subtrahend) = (items[0], items[1])
        } else {
            try call.params.expect(["minuend", "subtrahend"])
            (minuend, subtrahend) = (call.params["minuend"], call.params["subtrahend"])
        }
        guard let a = minuend?.doubleValue, let b = subtrahend?.doubleValue else {
            throw Params.invalid("params", "minuend and subtrahend must be numbers")
        }
        call.reply.succeed(.number(JSONNumber(a - b)))
    }

    static func sum(_ call: MethodCall) throws(RPCError) {
        let items: [JSONValue]
        switch call.params.raw {
        case .array(let positional)?: items = positional
        case .object?:
            try call.params.expect(["numbers"])
            guard case .array(let named)? = call.params["numbers"] else {
                throw Params.invalid("numbers", "expected an array of numbers")
            }
            items = named
        default: throw Params.invalid("params", "expected an array of numbers")
        }
        var total = 0.0
        for item in items {
            guard let value = item.doubleValue else { throw Params.invalid("params", "expected an array of numbers") }
            total += value
        }
        call.reply.succeed(.number(JSONNumber(total)))
    }
}
