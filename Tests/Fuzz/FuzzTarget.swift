// libFuzzer entry point for the line framer and the JSON-RPC decoder: the bytes a client could
// send are framed into lines (in two chunks, split where the input says), each line is parsed,
// framed and decoded as JSON-RPC, and every value that parses must survive an encode/parse
// round trip unchanged. Each line also goes through the `query.get` scanner, which must agree
// with the decoder on every line it accepts. A crash, a hang or a failed check is a finding.

import QuerydJSON
import QuerydRPC

/// Checks one line the way a session handles it.
func fuzzLine(_ line: UnsafeRawBufferPointer) {
    fuzzGetScan(line)
    guard let value = try? JSONParser.parse(line, maxDepth: 64) else { return }
    let encoded = value.encoded
    let reparsed = encoded.withUnsafeBytes { try? JSONParser.parse($0, maxDepth: 64) }
    precondition(reparsed == value, "encode/parse round trip changed a value")
    switch RPCDecoding.frame(value) {
    case .single(let message):
        fuzzMessage(message)
    case .batch(let members):
        for member in members { fuzzMessage(member) }
    }
}

/// A line the `query.get` scanner accepts must decode to that request with exactly `{"key": K}`
/// as params, an id written as the bytes the scanner found, and K's canonical encoding equal to
/// the scanner's canonical key bytes.
func fuzzGetScan(_ line: UnsafeRawBufferPointer) {
    guard let found = GetRequestScanner.scan(line, maxDepth: 64) else { return }
    guard let value = try? JSONParser.parse(line, maxDepth: 64),
        case .success(.request(let request)) = RPCDecoding.decode(value)
    else { preconditionFailure("the query.get scanner accepted a line that is not a request") }
    var id: [UInt8] = []
    request.id.write(to: &id)
    precondition(id.elementsEqual(line[found.id]), "the query.get scanner found other id bytes")
    precondition(request.method == "query.get", "the query.get scanner accepted another method")
    guard case .object(let params)? = request.params, params.count == 1, let key = params["key"],
        case .array(let elements) = key, !elements.isEmpty
    else { preconditionFailure("the query.get scanner accepted params other than a non-empty key") }
    var canonical: [UInt8] = []
    found.appendCanonicalKey(from: line, to: &canonical)
    precondition(canonical == key.encoded, "the query.get scanner's key bytes are not canonical")
}

/// Decodes one message and writes a reply to it, as the server would.
func fuzzMessage(_ message: JSONValue) {
    var out: [UInt8] = []
    switch RPCDecoding.decode(message) {
    case .success(.request(let request)):
        RPCWriter.result(id: request.id, result: request.params ?? .null, to: &out)
    case .success(.notification(let notification)):
        RPCWriter.notification(method: notification.method, params: notification.params ?? .null, to: &out)
    case .success(.response(let response)):
        if case .failure(let error) = response.outcome { RPCWriter.error(id: response.id, error: error, to: &out) }
    case .failure(let invalid):
        RPCWriter.error(id: invalid.id, error: .invalidRequest(invalid.reason), to: &out)
    }
    if !out.isEmpty {
        precondition(out.withUnsafeBytes { (try? JSONParser.parse($0)) != nil }, "a written reply is not JSON")
        precondition(!out.contains(0x0A), "a written reply contains a raw newline")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    var framer = LineFramer(maxLineBytes: 4096)
    // The first byte chooses where the input is cut in two reads.
    let cut = count > 0 ? Int(bytes[0]) % (count + 1) : 0
    for chunk in [UnsafeRawBufferPointer(rebasing: bytes[0..<cut]), UnsafeRawBufferPointer(rebasing: bytes[cut...])] {
        do {
            try framer.feed(chunk) { fuzzLine($0) }
        } catch {
            // An oversized line: a session closes the connection here; the framer must go on safely.
            try? framer.feed(UnsafeRawBufferPointer(start: nil, count: 0)) { fuzzLine($0) }
        }
    }
    try? framer.finish { fuzzLine($0) }
    return 0
}
