// `server.*` and `rpc.discover`: who the daemon is, liveness, counters, and the protocol document.

import QuerydCore
import QuerydJSON
import QuerydRPC

enum ServerMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("server.hello", nil, hello),
        ("server.ping", nil, ping),
        ("server.stats", nil, stats),
        ("rpc.discover", nil, discover),
    ]

    static func hello(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["client", "protocol", "require", "capabilities"])
        let version = try Negotiation.protocolVersion(call.params["protocol"])
        let requests = try Negotiation.clientRequests(call.params["capabilities"])
        var capabilities = (call.server.methods.names + Server.protocolNotifications).sorted()
        if call.server.configuration.manualClock { capabilities.append("feature:manual-clock") }
        capabilities += Negotiation.protocol2Capabilities
        try Negotiation.checkRequired(call.params["require"], offered: capabilities)
        call.session.greeting = ClientGreeting(protocolVersion: version, requests: requests)
        let client = call.params["client"]?.encodedString ?? "(not given)"
        call.server.logger.info(
            "connection \(call.session.connection): client \(client), protocol \(version), serves \(requests)")
        call.reply.succeed([
            "server": "queryd", "version": .string(call.server.configuration.version),
            "protocol": .number(JSONNumber(version)), "capabilities": .array(capabilities.map(JSONValue.string)),
            "node": .string(call.server.configuration.node), "epoch": .string(call.cache.epoch.text),
        ])
    }

    static func ping(_ call: MethodCall) throws(RPCError) {
        try call.params.expect([])
        call.reply.succeed([:])
    }

    static func stats(_ call: MethodCall) throws(RPCError) {
        try call.params.expect([])
        let counts = call.cache.statistics
        var stats: [String: JSONValue] = [
            "connections": .number(JSONNumber(call.server.connectionCount)),
            "queries": .number(JSONNumber(counts.queries)),
            "subscriptions": .number(JSONNumber(counts.subscriptions)),
            "fetchers": .number(JSONNumber(counts.fetchers)),
            "inFlightFetches": .number(JSONNumber(counts.inFlightFetches)),
            "pendingRequests": .number(JSONNumber(counts.pendingWaiters)),
            "memory": ["rssBytes": .number(JSONNumber(ProcessMemory.residentBytes()))],
            "methods": methodCounts(call.server),
            "pushes": .number(JSONNumber(call.server.counters.pushes)),
            "fetches": fetchCounts(call.cache.fetchTotals),
        ]
        // Only with --cluster: a single host's stats are as they were.
        if let cluster = call.server.cluster { stats["cluster"] = cluster.statistics }
        call.reply.succeed(.object(stats))
    }

    /// `{"<method>": {"requests", "errors"}}` for each method of the table called at least once.
    private static func methodCounts(_ server: Server) -> JSONValue {
        let counters = server.counters
        var methods: [String: JSONValue] = [:]
        for (index, name) in server.methods.names.enumerated() where counters.requests[index] > 0 {
            methods[name] = [
                "requests": .number(JSONNumber(counters.requests[index])),
                "errors": .number(JSONNumber(counters.errors[index])),
            ]
        }
        return .object(methods)
    }

    /// `{"started", "settled", "durationMs": {"buckets": [{"le", "count"}…], "sum"}}`.
    private static func fetchCounts(_ totals: FetchTotals) -> JSONValue {
        let buckets = zip(FetchTotals.bucketBounds, totals.bucketCounts).map { bound, count -> JSONValue in
            ["le": .number(JSONNumber(bound)), "count": .number(JSONNumber(count))]
        }
        return [
            "started": .number(JSONNumber(totals.started)), "settled": .number(JSONNumber(totals.settled)),
            "durationMs": ["buckets": .array(buckets), "sum": .number(JSONNumber(totals.durationSumMs))],
        ]
    }

    static func discover(_ call: MethodCall) throws(RPCError) {
        try call.params.expect([])
        call.reply.succeed(encoded: call.server.discoveryDocument)
    }
}
