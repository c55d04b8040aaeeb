// Decoding rules beyond the spec examples: responses, conflicting members, extras, reasons.

import QuerydJSON
import QuerydRPC
import Testing

@Suite("Envelope decoding")
struct EnvelopeTests {
    @Test("a result response keeps its id and value")
    func resultResponse() throws {
        let decoded = try decode(#"{"jsonrpc":"2.0","id":"s:17","result":{"data":[1,2]}}"#)
        #expect(decoded == .success(.response(RPCResponse(id: "s:17", outcome: .success(["data": [1, 2]])))))
        let nullResult = try decode(#"{"jsonrpc":"2.0","id":4,"result":null}"#)
        #expect(nullResult == .success(.response(RPCResponse(id: 4, outcome: .success(.null)))))
    }

    @Test("an error response carries the parsed error object")
    func errorResponse() throws {
        let decoded = try decode(
            #"{"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"boom","data":{"status":503}},"x":1}"#)
        let expected = RPCError(.fetchFailed, "boom", data: ["status": 503])
        #expect(decoded == .success(.response(RPCResponse(id: 5, outcome: .failure(expected)))))
        let plain = try decode(#"{"jsonrpc":"2.0","id":null,"error":{"code":7,"message":""}}"#)
        #expect(
            plain
                == .success(
                    .response(RPCResponse(id: .null, outcome: .failure(RPCError(RPCErrorCode(rawValue: 7), ""))))))
    }

    @Test("malformed responses are invalid, flagged as responses, with the legal id kept")
    func malformedResponses() {
        #expect(outcomes(#"{"jsonrpc":"2.0","id":5,"error":{"code":"x","message":"m"}}"#) == [.invalidResponse(5)])
        #expect(outcomes(#"{"jsonrpc":"2.0","id":5,"error":{"code":1.5,"message":"m"}}"#) == [.invalidResponse(5)])
        #expect(outcomes(#"{"jsonrpc":"2.0","id":5,"error":{"code":1}}"#) == [.invalidResponse(5)])
        #expect(outcomes(#"{"jsonrpc":"2.0","id":5,"error":"failed"}"#) == [.invalidResponse(5)])
        #expect(
            outcomes(#"{"jsonrpc":"2.0","id":5,"result":1,"error":{"code":1,"message":"m"}}"#) == [.invalidResponse(5)])
        #expect(outcomes(#"{"jsonrpc":"2.0","result":1}"#) == [.invalidResponse(nil)])
        #expect(outcomes(#"{"jsonrpc":"2.0","id":[5],"result":1}"#) == [.invalidResponse(nil)])
        #expect(outcomes(#"{"id":5,"result":1}"#) == [.invalidResponse(5)])
    }

    @Test("an object with both method and result or error is an invalid request")
    func methodAndResult() {
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","id":1,"result":2}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","error":{"code":1,"message":"m"}}"#) == [.invalid(nil)])
    }

    @Test("an object with neither method nor result nor error is an invalid request")
    func nothingToDo() {
        #expect(outcomes(#"{"jsonrpc":"2.0","id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"foo":"boo"}"#) == [.invalid(nil)])
        #expect(outcomes("{}") == [.invalid(nil)])
    }

    @Test("method must be a string of any content")
    func methodTypes() {
        #expect(outcomes(#"{"jsonrpc":"2.0","method":null,"id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":[],"id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":{},"id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"","id":1}"#) == [.request(1, "")])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"a\u0000b","id":1}"#) == [.request(1, "a\u{0}b")])
    }

    @Test("unknown members are ignored")
    func extraMembers() throws {
        let decoded = try decode(#"{"jsonrpc":"2.0","method":"ping","id":1,"params":[],"meta":{"x":1},"trace":true}"#)
        #expect(decoded == .success(.request(RPCRequest(id: 1, method: "ping", params: []))))
    }

    @Test("the reason tells what was wrong, and the reply error is -32600 with it")
    func reasons() throws {
        let cases: [(String, String)] = [
            ("42", "a JSON-RPC message must be an object"),
            ("[]", "an empty batch is not a request"),
            (#"{"jsonrpc":"2.0","method":"p","id":true}"#, "id must be a string, a number or null"),
            (#"{"method":"p","id":1}"#, #"jsonrpc must be the string "2.0""#),
            (#"{"jsonrpc":"2.0","method":"p","id":1,"error":{}}"#, "a request cannot also carry result or error"),
            (#"{"jsonrpc":"2.0","method":7}"#, "method must be a string"),
            (#"{"jsonrpc":"2.0","method":"p","params":1}"#, "params must be an object or an array when present"),
            (#"{"jsonrpc":"2.0"}"#, "a request needs a method"),
            (#"{"jsonrpc":"2.0","result":1}"#, "a response needs an id"),
            (#"{"jsonrpc":"2.0","id":1,"result":1,"error":{}}"#, "a response cannot carry both result and error"),
            (
                #"{"jsonrpc":"2.0","id":1,"error":{}}"#,
                "error must be an object with an integer code and a string message"
            ),
        ]
        for (text, reason) in cases {
            guard case .failure(let invalid) = try decode(text) else {
                Issue.record("\(text) decoded")
                continue
            }
            #expect(invalid.reason == reason, "\(text)")
            #expect(invalid.error == RPCError(.invalidRequest, "Invalid Request", data: ["reason": .string(reason)]))
        }
        guard case .failure(let nested) = RPCDecoding.decode([[1]]) else {
            Issue.record("a nested array decoded")
            return
        }
        #expect(nested.reason == "a JSON-RPC message must be an object, not an array")
    }

    @Test("frame splits only non-empty arrays")
    func frames() {
        #expect(RPCDecoding.frame([1, 2]) == .batch([1, 2]))
        #expect(RPCDecoding.frame([[]]) == .batch([[]]))
        #expect(RPCDecoding.frame([]) == .single([]))
        #expect(RPCDecoding.frame(["jsonrpc": "2.0"]) == .single(["jsonrpc": "2.0"]))
        #expect(RPCDecoding.frame(.null) == .single(.null))
    }
}
