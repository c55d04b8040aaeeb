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
        try call.params.expect(["client"])
        var capabilities = (call.server.methods.names + Server.protocolNotifications).sorted().map {
            JSONValue.string($0)
        }
        if call.server.configuration.manualClock { capabilities.append("feature:manual-clock") }
        call.reply.succeed([
            "server": "queryd", "version": .string(call.server.configuration.version), "protocol": 1,
            "capabilities": .array(capabilities),
        ])
    }

    static func ping(_ call: MethodCall) throws(RPCError) {
        try call.params.expect([])
        call.reply.succeed([:])
    }

    static func stats(_ call: MethodCall) throws(RPCError) {
        try call.params.expect([])
        let counts = call.cache.statistics
        call.reply.succeed([
            "connections": .number(JSONNumber(call.server.connectionCount)),
            "queries": .number(JSONNumber(counts.queries)),
            "subscriptions": .number(JSONNumber(counts.subscriptions)),
            "fetchers": .number(JSONNumber(counts.fetchers)),
            "inFlightFetches": .number(JSONNumber(counts.inFlightFetches)),
            "pendingRequests": .number(JSONNumber(counts.pendingWaiters)),
            "memory": ["rssBytes": .number(JSONNumber(ProcessMemory.residentBytes()))],
        ])
    }

    static func discover(_ call: MethodCall) throws(RPCError) {
        try call.params.expect([])
        call.reply.succeed(encoded: call.server.discoveryDocument)
    }
}
