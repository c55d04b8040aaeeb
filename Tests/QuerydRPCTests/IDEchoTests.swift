// Ids come back exactly as they were sent: type, sign, fraction and all 64 bits.

import QuerydJSON
import QuerydRPC
import Testing

@Suite("Id echo")
struct IDEchoTests {
    static let idTexts = ["0", "-7", "1.5", "9007199254740993", #""1""#, "null", #""""#, #""s:17""#]

    /// The ids a request may carry (`null` is refused as a request id; its refusal echoes it).
    static let requestIDTexts = idTexts.filter { $0 != "null" }

    @Test("a request's id is written back byte for byte in results and errors", arguments: requestIDTexts)
    func echoed(idText: String) throws {
        let line = #"{"jsonrpc":"2.0","method":"ping","id":\#(idText)}"#
        guard case .success(.request(let request)) = try decode(line) else {
            Issue.record("\(line) did not decode as a request")
            return
        }
        var out: [UInt8] = []
        RPCWriter.result(id: request.id, result: [:], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"jsonrpc":"2.0","id":\#(idText),"result":{}}"#)
        out.removeAll()
        RPCWriter.error(id: request.id, error: RPCError(.methodNotFound), to: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"{"jsonrpc":"2.0","id":\#(idText),"error":{"code":-32601,"message":"Method not found"}}"#)
    }

    @Test("an invalid request's legal id is echoed too", arguments: idTexts)
    func echoedWhenInvalid(idText: String) throws {
        guard case .failure(let invalid) = try decode(#"{"jsonrpc":"1.0","method":"ping","id":\#(idText)}"#) else {
            Issue.record("a 1.0 request decoded")
            return
        }
        var out: [UInt8] = []
        RPCWriter.error(id: invalid.id, error: invalid.error, to: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"{"jsonrpc":"2.0","id":\#(idText),"error":{"code":-32600,"message":"Invalid Request","#
                + #""data":{"reason":"jsonrpc must be the string \"2.0\""}}}"#)
    }

    @Test("ids map to and from JSON values")
    func jsonValues() {
        #expect(RPCID(jsonValue: "a") == .string("a"))
        #expect(RPCID(jsonValue: 3) == .number(JSONNumber(3)))
        #expect(RPCID(jsonValue: .null) == .null)
        #expect(RPCID(jsonValue: true) == nil)
        #expect(RPCID(jsonValue: [1]) == nil)
        #expect(RPCID(jsonValue: ["a": 1]) == nil)
        #expect(RPCID.string("x").jsonValue == "x")
        #expect(RPCID.number(JSONNumber(-2)).jsonValue == -2)
        #expect(RPCID.null.jsonValue == .null)
        #expect(RPCID.string("a\"b").description == #""a\"b""#)
        #expect(RPCID.number(JSONNumber(12)).description == "12")
    }

    @Test("string and number ids with the same text are different ids")
    func stringVersusNumber() {
        #expect(RPCID.string("1") != RPCID.number(JSONNumber(1)))
        #expect(Set<RPCID>(["1", 1, .null]).count == 3)
    }
}
