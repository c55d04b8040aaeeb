// Helpers that run a line through framer, parser, framing and decoding and summarise the outcome.

import QuerydJSON
import QuerydRPC
import Testing

/// The observable outcome of one line, with just enough detail to assert the spec's rules.
enum LineOutcome: Hashable {
    case parseError
    case request(RPCID, String)
    case notification(String)
    case response(RPCID)
    case invalid(RPCID?)
    case invalidResponse(RPCID?)
    case batch([LineOutcome])
}

/// Decodes one framed value.
func outcome(of value: JSONValue) -> LineOutcome {
    switch RPCDecoding.decode(value) {
    case .success(.request(let request)): return .request(request.id, request.method)
    case .success(.notification(let notification)): return .notification(notification.method)
    case .success(.response(let response)): return .response(response.id)
    case .failure(let invalid): return invalid.isResponse ? .invalidResponse(invalid.id) : .invalid(invalid.id)
    }
}

/// Parses one line and decodes it as a single message or a batch. Every line is also given to the
/// fast path, `RPCDecoding.decodeObjectLine`, which must agree with the parser whenever it answers.
func outcome(ofLine line: UnsafeRawBufferPointer) -> LineOutcome {
    expectFastPathAgrees(line)
    let value: JSONValue
    do {
        value = try JSONParser.parse(line)
    } catch {
        return .parseError
    }
    switch RPCDecoding.frame(value) {
    case .single(let single): return outcome(of: single)
    case .batch(let elements): return .batch(elements.map { outcome(of: $0) })
    }
}

/// Runs `text` through a framer (ending the stream after it) and returns one outcome per line.
func outcomes(_ text: String) -> [LineOutcome] {
    var framer = LineFramer(maxLineBytes: 1 << 20)
    var results: [LineOutcome] = []
    do {
        try feed(&framer, text) { results.append(outcome(ofLine: $0)) }
        try framer.finish { results.append(outcome(ofLine: $0)) }
    } catch {
        Issue.record("unexpected framing error \(error)")
    }
    return results
}

/// Decodes a JSON text that must parse.
func decode(_ text: String) throws -> Result<RPCMessage, RPCInvalid> {
    RPCDecoding.decode(try JSONParser.parse(text))
}

/// The generic path's answer for a line: nil when the parser refuses it or it is a batch.
func genericDecode(_ line: UnsafeRawBufferPointer, maxDepth: Int = 512) -> Result<RPCMessage, RPCInvalid>? {
    guard let value = try? JSONParser.parse(line, maxDepth: maxDepth),
        case .single(let single) = RPCDecoding.frame(value)
    else { return nil }
    return RPCDecoding.decode(single)
}

/// Checks that when the fast path answers, the parser accepts the line as a single message and
/// decodes it to the same outcome (values, ids, reasons). Returns whether the fast path answered.
@discardableResult
func expectFastPathAgrees(_ line: UnsafeRawBufferPointer, maxDepth: Int = 512) -> Bool {
    guard let fast = RPCDecoding.decodeObjectLine(line, maxDepth: maxDepth) else { return false }
    let generic = genericDecode(line, maxDepth: maxDepth)
    #expect(generic == fast, "fast path disagrees on \(String(decoding: line, as: UTF8.self))")
    return true
}
