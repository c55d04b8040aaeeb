// The request fast path (`RPCDecoding.decodeObjectLine`) against the parser plus `RPCDecoding.decode`:
// fixed edge cases, then seeded random lines. Whenever the fast path answers, the answers must be equal.

import QuerydJSON
import QuerydRPC
import QuerydTestSupport
import Testing

@Suite("Fast request decoding")
struct FastDecodeTests {
    /// Decodes `text` on the fast path (nil when it gives up), checking agreement with the parser.
    private func fast(_ text: String, maxDepth: Int = 512) -> Result<RPCMessage, RPCInvalid>?? {
        var text = text
        return text.withUTF8 { utf8 in
            let line = UnsafeRawBufferPointer(utf8)
            guard expectFastPathAgrees(line, maxDepth: maxDepth) else { return .some(nil) }
            return .some(RPCDecoding.decodeObjectLine(line, maxDepth: maxDepth))
        }
    }

    @Test("ordinary requests, notifications and responses take the fast path with exact values")
    func ordinary() {
        let request = fast(#"{"jsonrpc":"2.0","id":7,"method":"query.get","params":{"key":["bench","k1"]}}"#)
        #expect(
            request == .success(.request(RPCRequest(id: 7, method: "query.get", params: ["key": ["bench", "k1"]]))))
        #expect(
            fast(#" { "method" : "ping" , "jsonrpc" : "2.0" } "#)
                == .success(.notification(RPCNotification(method: "ping"))))
        #expect(
            fast(#"{"jsonrpc":"2.0","id":"s:1","result":[1,{"a":null}]}"#)
                == .success(.response(RPCResponse(id: "s:1", outcome: .success([1, ["a": .null]])))))
        #expect(
            fast(#"{"jsonrpc":"2.0","id":null,"method":"m","params":[]}"#)
                == .failure(RPCInvalid(id: .null, reason: "a request id must be a string or a number, not null")))
        #expect(
            fast(#"{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}"#)
                == .success(.request(RPCRequest(id: .number(JSONNumber(Int64(9_007_199_254_740_993))), method: "m"))))
    }

    @Test("invalid envelopes are decided on the fast path exactly as by decode")
    func invalidEnvelopes() {
        let lines = [
            "{}", #"{"jsonrpc":"1.0","id":1,"method":"m"}"#, #"{"id":[1],"jsonrpc":"2.0","method":"m"}"#,
            #"{"jsonrpc":"2.0","id":true,"result":1}"#, #"{"jsonrpc":"2.0","method":1}"#,
            #"{"jsonrpc":"2.0","method":"m","params":null}"#, #"{"jsonrpc":"2.0","method":"m","result":1}"#,
            #"{"jsonrpc":"2.0","result":1}"#, #"{"jsonrpc":"2.0","id":1,"result":1,"error":{}}"#,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}"#, #"{"jsonrpc":2.0,"id":1,"method":"m"}"#,
        ]
        for line in lines {
            guard case .some(.some(.failure)) = fast(line) else {
                Issue.record("expected a fast-path failure for \(line)")
                continue
            }
        }
    }

    @Test("anything the fast path cannot decide exactly is left to the parser")
    func givesUp() {
        let lines = [
            #"{"jsonrpc":"2.0","method":"m","id":1,"id":2}"#,  // duplicate: a parse error
            #"{"jsonrpc":"2.0","method":"m","method":"n"}"#,
            #"{"jsonrpc":"2.0","method":"m","extra":1}"#,  // an unknown member needs the duplicate check
            #"{"jsonrpc":"2.0","\u006dethod":"m"}"#,  // an escaped name
            #"{"jsonrpc":"2.0","métho":"m"}"#, "[1]", "[]", "1", #""x""#, "", " ",
            "\u{FEFF}{\"jsonrpc\":\"2.0\",\"method\":\"m\"}",  // a BOM
            #"{"jsonrpc":"2.0","method":"m"} x"#, #"{"jsonrpc":"2.0","method":"m",}"#,
            #"{"jsonrpc":"2.0","method":"m""#,
            #"{"jsonrpc":"2.0","method":"\ud800"}"#, #"{"jsonrpc":"2.0","method":"m","params":[1,]}"#,
            #"{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2}}"#, #"{"jsonrpc" "2.0"}"#, #"{'jsonrpc':"2.0"}"#,
        ]
        for line in lines { #expect(fast(line) == .some(nil), "\(line)") }
        // Invalid UTF-8 in a value.
        let bytes: [UInt8] = Array(#"{"jsonrpc":"2.0","method":""#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8)
        bytes.withUnsafeBytes { #expect(RPCDecoding.decodeObjectLine($0, maxDepth: 512) == nil) }
    }

    @Test("the depth limit counts the envelope as level one, as the parser does")
    func depth() {
        let line = #"{"jsonrpc":"2.0","method":"m","params":[[1]]}"#
        #expect(fast(line, maxDepth: 3) != .some(nil))
        #expect(fast(line, maxDepth: 2) == .some(nil))
        #expect(fast(#"{"jsonrpc":"2.0","method":"m"}"#, maxDepth: 1) != .some(nil))
        #expect(fast("{}", maxDepth: 0) == .some(nil))
    }

    /// Pieces that random lines are made of: envelope names (plain and escaped), values of every kind.
    static let names = [
        #""jsonrpc""#, #""id""#, #""method""#, #""params""#, #""result""#, #""error""#, #""x""#, #""\u0069d""#,
        #""é""#,
    ]
    static let values = [
        #""2.0""#, #""1.0""#, #""2\u002e0""#, "1", "-0", "1.5e3", "9007199254740993", "1e400", "null", "true", "[]",
        "{}", #"{"key":["bench",1]}"#, #"{"code":-32000,"message":"x"}"#, #"{"code":1,"message":"x","data":[1]}"#,
        #""query.get""#, #""\ud83d\ude00""#, #""\ud800""#, "[[[[1]]]]", #"{"a":1,"a":2}"#, "[1,]", "01", #""a\u0000b""#,
    ]

    @Test("seeded random envelopes: the fast path agrees with the parser, and answers the plain ones")
    func randomEnvelopes() {
        var random = SeededGenerator(seed: 8_2024)
        var answered = 0
        var declined = 0
        for round in 0..<3000 {
            var text = "{"
            for index in 0..<Int.random(in: 0...6, using: &random) {
                if index > 0 { text += Bool.random(using: &random) ? "," : " , " }
                text += Self.names.randomElement(using: &random)! + ":" + Self.values.randomElement(using: &random)!
            }
            text += "}"
            if round % 5 == 4 {
                // Mutate a byte now and then, to reach the parser's error paths.
                var bytes = Array(text.utf8)
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                text = String(decoding: bytes, as: UTF8.self)
            }
            switch fast(text, maxDepth: Int.random(in: 2...6, using: &random)) {
            case .some(.some): answered += 1
            default: declined += 1
            }
        }
        #expect(answered > 500)
        #expect(declined > 500)
    }
}
