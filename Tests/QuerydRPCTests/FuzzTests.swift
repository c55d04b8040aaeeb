// Seeded random input through framer, parser and decoder: no crash, and every outcome is consistent.

import QuerydJSON
import QuerydRPC
import QuerydTestSupport
import Testing

@Suite("Random input")
struct FuzzTests {
    /// Fragments that steer random text toward every decoder branch.
    static let fragments: [String] = [
        "{", "}", "[", "]", ",", ":", "\n", "\r\n", " ", "\t", #""jsonrpc""#, #""2.0""#, #""1.0""#, #""id""#,
        #""method""#, #""params""#, #""result""#, #""error""#, #""code""#, #""message""#, #""data""#, #""ping""#,
        "1", "-7", "1.5", "9007199254740993", "1e400", "null", "true", "false", #""\u0000""#, #""\ud800""#,
        "\u{2028}", "é", "\\", "\"", "\u{0}", "\u{FF}",
    ]

    @Test("random fragments and raw bytes never crash, and decoded requests round-trip through the writer")
    func randomInput() {
        var random = SeededGenerator(seed: 20_261_122)
        var kinds: [String: Int] = [:]
        for round in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...200, using: &random) {
                if round % 4 == 3 {
                    bytes.append(UInt8.random(in: 0...255, using: &random))
                } else {
                    bytes.append(contentsOf: Self.fragments.randomElement(using: &random)!.utf8)
                }
            }
            var framer = LineFramer(maxLineBytes: 256)
            var position = 0
            while position < bytes.count {
                let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
                do {
                    try feed(&framer, Array(bytes[position..<end])) { check($0, &kinds) }
                } catch {
                    kinds["tooLong", default: 0] += 1
                }
                position = end
            }
            do {
                try framer.finish { check($0, &kinds) }
            } catch {
                kinds["tooLong", default: 0] += 1
            }
            #expect(framer.bufferedByteCount == 0)
        }
        for kind in ["parseError", "invalid", "line"] {
            #expect(kinds[kind, default: 0] > 0, "the random input reached \(kind)")
        }
    }

    @Test("structured random messages decode to exactly what was written")
    func randomMessages() throws {
        var random = SeededGenerator(seed: 7)
        let ids: [RPCID] = [0, -7, "a\"b", .null, .number(JSONNumber(1.5)), .number(JSONNumber(Int64.max))]
        let params: [JSONValue] = [[], [:], [1, "x", .null], ["key": ["todos", 42, ["filter": "done"]]]]
        for _ in 0..<300 {
            let id = ids.randomElement(using: &random)!
            let param = params.randomElement(using: &random)!
            let method = String(
                (0..<Int.random(in: 0...6, using: &random)).map { _ in "ab.é\n/$".randomElement(using: &random)! })
            var out: [UInt8] = []
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                RPCWriter.request(id: id, method: method, params: param, to: &out)
                // A null request id is refused (its reply echoes null).
                let expected: Result<RPCMessage, RPCInvalid> =
                    id == .null
                    ? .failure(RPCInvalid(id: .null, reason: "a request id must be a string or a number, not null"))
                    : .success(.request(RPCRequest(id: id, method: method, params: param)))
                #expect(RPCDecoding.decode(try JSONParser.parse(out)) == expected)
            case 1:
                RPCWriter.notification(method: method, params: param, to: &out)
                #expect(
                    RPCDecoding.decode(try JSONParser.parse(out))
                        == .success(.notification(RPCNotification(method: method, params: param))))
            case 2:
                RPCWriter.result(id: id, result: param, to: &out)
                #expect(
                    RPCDecoding.decode(try JSONParser.parse(out))
                        == .success(.response(RPCResponse(id: id, outcome: .success(param)))))
            default:
                let error = RPCError(.limitExceeded, method, data: param)
                RPCWriter.error(id: id, error: error, to: &out)
                #expect(
                    RPCDecoding.decode(try JSONParser.parse(out))
                        == .success(.response(RPCResponse(id: id, outcome: .failure(error)))))
            }
        }
    }
}

/// Parses and decodes one framed line, checking the framing invariants and that any decoded
/// message survives a write/parse/decode round trip.
private func check(_ line: UnsafeRawBufferPointer, _ kinds: inout [String: Int]) {
    #expect(line.count <= 256)
    #expect(!line.contains(0x0A))
    #expect(!line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
    kinds["line", default: 0] += 1
    let value: JSONValue
    do {
        value = try JSONParser.parse(line)
    } catch {
        kinds["parseError", default: 0] += 1
        _ = RPCError.parse(error)
        return
    }
    let members: [JSONValue]
    switch RPCDecoding.frame(value) {
    case .single(let single): members = [single]
    case .batch(let batch): members = batch
    }
    for member in members {
        var out: [UInt8] = []
        switch RPCDecoding.decode(member) {
        case .failure(let invalid):
            kinds["invalid", default: 0] += 1
            RPCWriter.error(id: invalid.id, error: invalid.error, to: &out)
            #expect((try? JSONParser.parse(out)) != nil)
        case .success(.request(let request)):
            kinds["request", default: 0] += 1
            RPCWriter.request(id: request.id, method: request.method, params: request.params ?? [], to: &out)
            let again = RPCDecoding.decode((try? JSONParser.parse(out)) ?? .null)
            #expect(
                again
                    == .success(
                        .request(RPCRequest(id: request.id, method: request.method, params: request.params ?? []))))
        case .success(.notification(let notification)):
            kinds["notification", default: 0] += 1
            RPCWriter.notification(method: notification.method, params: notification.params ?? [], to: &out)
            #expect((try? JSONParser.parse(out)) != nil)
        case .success(.response(let response)):
            kinds["response", default: 0] += 1
            if case .success(let result) = response.outcome {
                RPCWriter.result(id: response.id, result: result, to: &out)
                #expect(RPCDecoding.decode((try? JSONParser.parse(out)) ?? .null) == .success(.response(response)))
            }
        }
    }
}
