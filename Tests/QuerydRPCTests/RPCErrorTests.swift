// Error codes, standard messages, error objects to and from JSON, and the parse/invalid mappings.

import QuerydJSON
import QuerydRPC
import Testing

@Suite("RPCError")
struct RPCErrorTests {
    @Test("every named code has its number and standard message")
    func codes() {
        let table: [(RPCErrorCode, Int, String)] = [
            (.parseError, -32700, "Parse error"), (.invalidRequest, -32600, "Invalid Request"),
            (.methodNotFound, -32601, "Method not found"), (.invalidParams, -32602, "Invalid params"),
            (.internalError, -32603, "Internal error"), (.requestCancelled, -32800, "Request cancelled"),
            (.fetchFailed, -32001, "Fetch failed"), (.noFetcher, -32002, "No fetcher"),
            (.cancelledByServer, -32003, "Cancelled by the server"), (.timeout, -32004, "Timeout"),
            (.unknownID, -32005, "Unknown id"), (.limitExceeded, -32006, "Limit exceeded"),
            (.mutationFailed, -32007, "Mutation failed"), (.permissionDenied, -32008, "Permission denied"),
        ]
        for (code, raw, message) in table {
            #expect(code.rawValue == raw)
            #expect(code.standardMessage == message)
            #expect(RPCErrorCode(rawValue: raw) == code)
            #expect(RPCError(code).message == message)
        }
        #expect(RPCErrorCode(rawValue: -32050).standardMessage == "Server error")
        #expect(RPCErrorCode(rawValue: 1000).standardMessage == "Error")
        #expect(RPCErrorCode.timeout.description == "-32004 (Timeout)")
    }

    @Test("an error converts to a JSON object and back")
    func jsonRoundTrip() {
        let error = RPCError(.fetchFailed, "upstream 503", data: ["status": 503])
        #expect(error.jsonValue == ["code": -32001, "message": "upstream 503", "data": ["status": 503]])
        #expect(RPCError(jsonValue: error.jsonValue) == error)
        #expect(RPCError(.timeout).jsonValue == ["code": -32004, "message": "Timeout"])
        #expect(
            RPCError(jsonValue: ["code": 12, "message": "m", "data": .null])
                == RPCError(RPCErrorCode(rawValue: 12), "m", data: .null))
        #expect(
            RPCError(jsonValue: ["code": 12, "message": "m", "extra": 1]) == RPCError(RPCErrorCode(rawValue: 12), "m"))
    }

    @Test("malformed error objects are refused")
    func malformed() {
        #expect(RPCError(jsonValue: ["code": "12", "message": "m"]) == nil)
        #expect(RPCError(jsonValue: ["code": 1.5, "message": "m"]) == nil)
        #expect(RPCError(jsonValue: ["code": 12]) == nil)
        #expect(RPCError(jsonValue: ["message": "m"]) == nil)
        #expect(RPCError(jsonValue: ["code": 12, "message": 3]) == nil)
        #expect(RPCError(jsonValue: "error") == nil)
        #expect(RPCError(jsonValue: [12, "m"]) == nil)
    }

    @Test("a JSON parse error becomes -32700 with its offset, reason and the one-line hint")
    func parseMapping() {
        let error = RPCError.parse(JSONParseError(offset: 17, message: "unexpected character"))
        #expect(
            error
                == RPCError(
                    .parseError, "Parse error",
                    data: [
                        "offset": 17, "reason": "unexpected character", "hint": "send one JSON-RPC message per line",
                    ]))
        var out: [UInt8] = []
        RPCWriter.error(id: nil, error: error, to: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"#
                + #"{"hint":"send one JSON-RPC message per line","offset":17,"reason":"unexpected character"}}}"#)
    }

    @Test("a real parse failure maps through parse(_:)")
    func realParseFailure() {
        do {
            _ = try JSONParser.parse(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#)
            Issue.record("invalid JSON parsed")
        } catch {
            let mapped = RPCError.parse(error)
            #expect(mapped.code == .parseError)
            #expect(mapped.data?["offset"] == .number(JSONNumber(error.offset)))
            #expect(mapped.data?["reason"] == .string(error.message))
        }
    }

    @Test("invalid-request and line-too-long errors carry their detail")
    func invalidMappings() {
        #expect(RPCError.invalidRequest("why") == RPCError(.invalidRequest, "Invalid Request", data: ["reason": "why"]))
        #expect(
            RPCError.lineTooLong(limit: 16)
                == RPCError(.invalidRequest, data: ["reason": "message exceeds 16 bytes", "limit": 16]))
    }
}
