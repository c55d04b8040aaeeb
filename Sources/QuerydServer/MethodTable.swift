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

/// What a successful call of a method changes in the connection's counted holdings (the
/// per-connection subscription and registration limits).
enum MethodHolding {
    case subscription(Int)
    case registration(Int)
}

/// One served method.
struct MethodEntry {
    let handler: MethodHandler
    /// Set for the methods that take or release a counted holding.
    let holding: MethodHolding?
    /// The method's place in `MethodTable.names` (where its counters are).
    var index = 0
}

/// The methods this daemon serves with its configuration.
struct MethodTable {
    /// The methods that take (+1) or release (-1) a holding counted against a per-connection limit.
    private static let holdings: [String: MethodHolding] = [
        "query.subscribe": .subscription(1), "query.unsubscribe": .subscription(-1),
        "fetcher.register": .registration(1), "fetcher.unregister": .registration(-1),
        "mutator.register": .registration(1), "mutator.unregister": .registration(-1),
        "cache.watch": .subscription(1), "cache.unwatch": .subscription(-1),
    ]

    private var entries: [String: MethodEntry] = [:]
    /// The served method names, sorted.
    private(set) var names: [String] = []
    /// The place of `query.set` in `names` (its counters, kept by the write fast path too).
    private(set) var querySetIndex = 0

    init(configuration: ServerConfiguration) {
        let all: [(String, MethodGate?, MethodHandler)] =
            ServerMethods.all + FetcherMethods.all + QueryMethods.all + QueriesMethods.all + ClientMethods.all
            + ClockMethods.all
            + TestMethods.all + MutationMethods.all + NetworkMethods.all + WatchMethods.all
            + CountMethods.all + DefaultsMethods.all + CacheMethods.all
        for (name, gate, handler) in all {
            switch gate {
            case .manualClock?: if !configuration.manualClock { continue }
            case .testMethods?: if !configuration.testMethods { continue }
            case nil: break
            }
            entries[name] = MethodEntry(handler: handler, holding: Self.holdings[name])
        }
        names = entries.keys.sorted()
        for (index, name) in names.enumerated() { entries[name]?.index = index }
        querySetIndex = entries["query.set"]?.index ?? 0
    }

    func entry(for method: String) -> MethodEntry? { entries[method] }
}
