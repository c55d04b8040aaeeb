// `server.hello`'s negotiation: which protocol a connection speaks, the capabilities it requires,
// and what the client says it serves. Every rule refuses with -32602 and a `data` a client can act on.

import QuerydJSON
import QuerydRPC

/// What a connection settled in `server.hello`, kept for its life (shown in the daemon's log).
struct ClientGreeting {
    /// The protocol both sides speak.
    let protocolVersion: Int
    /// The server-to-client requests the client says it serves (`capabilities.requests`).
    let requests: [String]
}

enum Negotiation {
    /// The protocols this daemon speaks.
    static let supported = 1...2

    /// The capability names of what protocol 2 adds (after the method and feature names).
    static let protocol2Capabilities = [
        "option:push", "option:echo", "field:epoch", "field:dataVersion", "notification:$/closing",
        "param:cursor", "param:_meta",
        // Issue 16: params added to existing methods, and the count subscriptions' notification.
        "param:cancelRefetch", "param:ifVersion", "notification:count.changed",
    ]

    /// The highest protocol in both this daemon's range and `requested` (absent: any).
    static func protocolVersion(_ requested: JSONValue?) throws(RPCError) -> Int {
        guard let requested else { return supported.upperBound }
        let range = try clientRange(requested)
        let low = max(range.min, supported.lowerBound)
        let high = min(range.max, supported.upperBound)
        guard low <= high else { throw protocolError(requested, "no protocol version in common") }
        return high
    }

    /// `protocol` as an inclusive range: an integer N is N...N, `{min, max}` either bound omitted
    /// (min 1, max unbounded).
    private static func clientRange(_ value: JSONValue) throws(RPCError) -> (min: Int, max: Int) {
        func bound(_ name: String, _ member: JSONValue?, default fallback: Int) throws(RPCError) -> Int {
            guard let member else { return fallback }
            guard let n = member.intValue, n >= 1 else {
                throw protocolError(value, "\(name) must be an integer >= 1")
            }
            return n
        }
        switch value {
        case .number:
            let n = try bound("protocol", value, default: 1)
            return (n, n)
        case .object(let members):
            if let unknown = members.keys.sorted().first(where: { $0 != "min" && $0 != "max" }) {
                throw protocolError(value, "unknown member \(unknown); expected min, max")
            }
            let low = try bound("protocol.min", members["min"], default: 1)
            let high = try bound("protocol.max", members["max"], default: Int.max)
            guard low <= high else { throw protocolError(value, "protocol.min is above protocol.max") }
            return (low, high)
        default:
            throw protocolError(value, "must be an integer >= 1 or an object {min, max}")
        }
    }

    /// The -32602 for `protocol`, always with `supported`, so a client tells it from a protocol-1
    /// daemon's "unknown parameter" (which has no `supported`).
    private static func protocolError(_ requested: JSONValue, _ reason: String) -> RPCError {
        RPCError(
            .invalidParams,
            data: [
                "field": "protocol", "reason": .string(reason),
                "supported": [
                    "min": .number(JSONNumber(supported.lowerBound)), "max": .number(JSONNumber(supported.upperBound)),
                ],
                "requested": requested,
            ])
    }

    /// Refuses when a name in `require` (an array of strings) is not among `offered`.
    static func checkRequired(_ required: JSONValue?, offered: [String]) throws(RPCError) {
        guard let required else { return }
        let names = try strings(required, field: "require")
        let offered = Set(offered)
        let missing = names.filter { !offered.contains($0) }
        guard missing.isEmpty else {
            throw RPCError(
                .invalidParams,
                data: [
                    "field": "require", "reason": "required capabilities this daemon does not offer",
                    "missing": .array(missing.map(JSONValue.string)),
                ])
        }
    }

    /// The requests listed in the client's `capabilities` object (its other members are the
    /// client's own business and are kept unread).
    static func clientRequests(_ capabilities: JSONValue?) throws(RPCError) -> [String] {
        guard let capabilities else { return [] }
        guard case .object(let members) = capabilities else {
            throw Params.invalid("capabilities", "must be an object, e.g. {\"requests\":[\"fetch\"]}")
        }
        guard let requests = members["requests"] else { return [] }
        return try strings(requests, field: "capabilities.requests")
    }

    private static func strings(_ value: JSONValue, field: String) throws(RPCError) -> [String] {
        guard case .array(let elements) = value else { throw Params.invalid(field, "must be an array of strings") }
        var names: [String] = []
        for element in elements {
            guard case .string(let name) = element else { throw Params.invalid(field, "must be an array of strings") }
            names.append(name)
        }
        return names
    }
}
