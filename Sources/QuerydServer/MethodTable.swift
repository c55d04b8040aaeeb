// The one table of methods: names, the switch that gates some of them, and their handlers. The
// dispatcher, `server.hello`'s capabilities and `rpc.discover` all read it, so they cannot disagree.

import QuerydCore
import QuerydRPC

/// Everything a method handler needs: the server, the calling session, its params and its reply.
struct MethodCall {
    let server: Server
    let session: Session
    let params: Params
    let reply: PendingReply

    var cache: QueryCache { server.cache }
}

typealias MethodHandler = @Sendable (MethodCall) throws(RPCError) -> Void

/// A command-line switch that must be on for a method to exist.
enum MethodGate: String {
    case manualClock = "manual-clock"
    case testMethods = "test-methods"
}

/// The methods this daemon serves with its configuration.
struct MethodTable {
    private var handlers: [String: MethodHandler] = [:]
    /// The served method names, sorted.
    private(set) var names: [String] = []

    init(configuration: ServerConfiguration) {
        let all: [(String, MethodGate?, MethodHandler)] =
            ServerMethods.all + FetcherMethods.all + QueryMethods.all + QueriesMethods.all + ClientMethods.all
            + ClockMethods.all
            + TestMethods.all + MutationMethods.all + NetworkMethods.all
        for (name, gate, handler) in all {
            switch gate {
            case .manualClock?: if !configuration.manualClock { continue }
            case .testMethods?: if !configuration.testMethods { continue }
            case nil: break
            }
            handlers[name] = handler
        }
        names = handlers.keys.sorted()
    }

    func handler(for method: String) -> MethodHandler? { handlers[method] }
}
