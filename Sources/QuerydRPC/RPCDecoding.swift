// Turns a parsed JSON value into a JSON-RPC message, applying the spec's validity rules.

public import QuerydJSON

/// A parsed line: one message, or a batch of them.
public enum RPCFrame: Sendable, Hashable {
    /// A single value, to decode as one message. An empty array `[]` is framed as a single
    /// value (spec: it gets one Invalid Request reply, not an array).
    case single(JSONValue)
    /// A non-empty array: each element is decoded as its own message, and the replies (if
    /// any) go out as one array.
    case batch([JSONValue])
}

/// Validation of inbound JSON-RPC 2.0 messages.
///
/// Rules: the value must be an object with `"jsonrpc": "2.0"` exactly. An `id`, when present,
/// must be a string, a number or null; a request's id must not be null (refused, echoing `null`). A
/// request or notification has a string `method` and optional `params` that must be an object
/// or an array (`"params": null` is invalid). An object with both `method` and `result` or
/// `error` is invalid. A response has an `id` and exactly one of `result` and `error`, where
/// `error` is a valid error object. Unknown extra members are ignored.
public enum RPCDecoding {
    /// Splits a parsed line into a single message or a batch.
    public static func frame(_ value: JSONValue) -> RPCFrame {
        if case .array(let elements) = value, !elements.isEmpty { return .batch(elements) }
        return .single(value)
    }

    /// Decodes one message; the failure carries the id to echo and the reason.
    public static func decode(_ value: JSONValue) -> Result<RPCMessage, RPCInvalid> {
        guard case .object(let members) = value else {
            return .failure(RPCInvalid(id: nil, reason: notAnObjectReason(value)))
        }
        return decode(RPCEnvelope(members))
    }

    /// Decodes a line that holds one JSON object straight from its bytes, without building the
    /// envelope's dictionary (the request fast path). Returns exactly what `decode(JSONParser.parse(line,
    /// maxDepth:))` returns, or nil when this path does not apply: the line is not one valid object whose
    /// member names are among `jsonrpc`, `id`, `method`, `params`, `result` and `error`, each once and
    /// written without escapes. On nil, parse the line with `JSONParser.parse`, which also gives the error.
    public static func decodeObjectLine(_ line: UnsafeRawBufferPointer, maxDepth: Int) -> Result<
        RPCMessage, RPCInvalid
    >? {
        var envelope = RPCEnvelope()
        guard JSONParser.visitObjectMembers(line, maxDepth: maxDepth, { envelope.take($0, $1) }) else { return nil }
        return decode(envelope)
    }

    /// The validity rules, applied to the members an envelope holds.
    private static func decode(_ envelope: RPCEnvelope) -> Result<RPCMessage, RPCInvalid> {
        let looksLikeResponse = envelope.method == nil && (envelope.result != nil || envelope.error != nil)

        var id: RPCID?
        if let rawID = envelope.id {
            guard let legal = RPCID(jsonValue: rawID) else {
                return .failure(
                    RPCInvalid(id: nil, reason: "id must be a string, a number or null", isResponse: looksLikeResponse))
            }
            id = legal
        }
        func invalid(_ reason: String) -> Result<RPCMessage, RPCInvalid> {
            .failure(RPCInvalid(id: id, reason: reason, isResponse: looksLikeResponse))
        }

        guard case .string("2.0")? = envelope.version else {
            return invalid(#"jsonrpc must be the string "2.0""#)
        }
        if let rawMethod = envelope.method {
            if envelope.result != nil || envelope.error != nil {
                return invalid("a request cannot also carry result or error")
            }
            guard case .string(let method) = rawMethod else { return invalid("method must be a string") }
            let params = envelope.params
            switch params {
            case nil, .array?, .object?: break
            default: return invalid("params must be an object or an array when present")
            }
            if id == .null { return invalid("a request id must be a string or a number, not null") }
            if let id { return .success(.request(RPCRequest(id: id, method: method, params: params))) }
            return .success(.notification(RPCNotification(method: method, params: params)))
        }
        guard looksLikeResponse else { return invalid("a request needs a method") }
        guard let id else { return invalid("a response needs an id") }
        if let result = envelope.result {
            if envelope.error != nil { return invalid("a response cannot carry both result and error") }
            return .success(.response(RPCResponse(id: id, outcome: .success(result))))
        }
        guard let rawError = envelope.error, let error = RPCError(jsonValue: rawError) else {
            return invalid("error must be an object with an integer code and a string message")
        }
        return .success(.response(RPCResponse(id: id, outcome: .failure(error))))
    }

    private static func notAnObjectReason(_ value: JSONValue) -> String {
        switch value {
        case .array(let elements) where elements.isEmpty: return "an empty batch is not a request"
        case .array: return "a JSON-RPC message must be an object, not an array"
        default: return "a JSON-RPC message must be an object"
        }
    }
}
