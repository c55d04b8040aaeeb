// RPCWriter output is byte-exact: member order, escaping, spliced results, no trailing newline.

import QuerydJSON
import QuerydRPC
import Testing

@Suite("RPCWriter")
struct RPCWriterTests {
    static func written(_ write: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        write(&out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("a table of envelopes, byte for byte")
    func table() {
        let cases: [(String, (inout [UInt8]) -> Void)] = [
            (
                #"{"jsonrpc":"2.0","id":1,"result":19}"#,
                { RPCWriter.result(id: 1, result: 19, to: &$0) }
            ),
            (
                #"{"jsonrpc":"2.0","id":"9","result":["hello",5]}"#,
                { RPCWriter.result(id: "9", result: ["hello", 5], to: &$0) }
            ),
            (
                #"{"jsonrpc":"2.0","id":null,"result":{"a":[],"b":null}}"#,
                { RPCWriter.result(id: .null, result: ["b": .null, "a": []], to: &$0) }
            ),
            (
                #"{"jsonrpc":"2.0","id":"a\"b\\c\nd\te","result":true}"#,
                { RPCWriter.result(id: "a\"b\\c\nd\te", result: true, to: &$0) }
            ),
            (
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
                { RPCWriter.error(id: nil, error: RPCError(.parseError), to: &$0) }
            ),
            (
                #"{"jsonrpc":"2.0","id":-7,"error":{"code":-32001,"message":"Fetch failed: \"x\"\n","#
                    + #""data":{"detail":"line1\nline2\r","status":503}}}"#,
                {
                    RPCWriter.error(
                        id: -7,
                        error: RPCError(
                            .fetchFailed, "Fetch failed: \"x\"\n", data: ["status": 503, "detail": "line1\nline2\r"]),
                        to: &$0)
                }
            ),
            (
                #"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":null}}"#,
                { RPCWriter.error(id: 3, error: RPCError(.invalidParams, data: .null), to: &$0) }
            ),
            (
                #"{"jsonrpc":"2.0","id":"s:1","method":"fetch","params":{"attempt":0,"fetcher":"f1","key":["todos"]}}"#,
                {
                    RPCWriter.request(
                        id: "s:1", method: "fetch", params: ["fetcher": "f1", "key": ["todos"], "attempt": 0], to: &$0)
                }
            ),
            (
                #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s:1"}}"#,
                { RPCWriter.notification(method: "$/cancelRequest", params: ["id": "s:1"], to: &$0) }
            ),
            (
                #"{"jsonrpc":"2.0","method":"query.changed","params":[]}"#,
                { RPCWriter.notification(method: "query.changed", params: [], to: &$0) }
            ),
        ]
        for (expected, write) in cases {
            #expect(Self.written(write) == expected)
        }
    }

    @Test("writes append to what the buffer already holds")
    func appends() {
        var out = Array("[".utf8)
        RPCWriter.result(id: 1, result: 1, to: &out)
        out.append(UInt8(ascii: ","))
        RPCWriter.error(id: 2, error: RPCError(.internalError), to: &out)
        out.append(UInt8(ascii: "]"))
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"[{"jsonrpc":"2.0","id":1,"result":1},"#
                + #"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error"}}]"#)
    }

    @Test("a pre-encoded 1 KB result is spliced verbatim, from an array or a raw buffer")
    func splice() {
        let value: JSONValue = .array((0..<128).map { .string("item\($0 % 10)") })
        let encoded = value.encoded
        #expect(encoded.count >= 1024)
        let expected = #"{"jsonrpc":"2.0","id":42,"result":"# + String(decoding: encoded, as: UTF8.self) + "}"
        #expect(Self.written { RPCWriter.result(id: 42, encodedResult: encoded, to: &$0) } == expected)
        #expect(
            Self.written { out in encoded.withUnsafeBytes { RPCWriter.result(id: 42, encodedResult: $0, to: &out) } }
                == expected)
        #expect(Self.written { RPCWriter.result(id: 42, result: value, to: &$0) } == expected)
    }

    @Test("every written line parses back to the same message and holds no raw newline")
    func roundTrip() throws {
        var out: [UInt8] = []
        RPCWriter.request(id: "line\nbreak\u{2028}", method: "m\r", params: ["text": "a\nb\u{0}c"], to: &out)
        #expect(!out.contains(0x0A) && !out.contains(0x0D))
        let decoded = RPCDecoding.decode(try JSONParser.parse(out))
        #expect(
            decoded
                == .success(
                    .request(RPCRequest(id: "line\nbreak\u{2028}", method: "m\r", params: ["text": "a\nb\u{0}c"]))))
        out.removeAll()
        let error = RPCError(.mutationFailed, "bad\nthing", data: ["nested": ["x": [1, 2.5, "\u{1}"]]])
        RPCWriter.error(id: 9, error: error, to: &out)
        #expect(!out.contains(0x0A) && !out.contains(0x0D))
        #expect(
            RPCDecoding.decode(try JSONParser.parse(out))
                == .success(.response(RPCResponse(id: 9, outcome: .failure(error)))))
    }
}
