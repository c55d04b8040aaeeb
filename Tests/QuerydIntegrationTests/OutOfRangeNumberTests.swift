// Issue 21 §5: a number beyond a double's range no longer turns the whole line into a -32700 with
// id null. A request is answered -32602 with its own id and the number's path; a fetcher's answer
// with such a number fails that attempt instead of leaving the fetch in flight.

import QuerydJSON
import Testing

@Suite("Out-of-range numbers")
struct OutOfRangeNumberTests {
    @Test func aRequestIsAnsweredWithItsIdAndTheNumbersPath() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        try client.send(#"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"key":["n"],"data":{"a":[1,1e400]}}}"#)
        #expect(
            try client.readJSON()
                == [
                    "jsonrpc": "2.0", "id": 7,
                    "error": [
                        "code": -32602, "message": "Invalid params",
                        "data": [
                            "field": "data.a.1",
                            "reason": "number out of range (I-JSON limits numbers to IEEE 754 doubles)",
                        ],
                    ],
                ])
        #expect(try client.result("query.get", ["key": ["n"]]) == nil)
        // Outside params (here the id) the line stays a parse error.
        try client.send(#"{"jsonrpc":"2.0","id":1e400,"method":"server.ping"}"#)
        let parse = try client.readJSON()
        #expect(parse.member("id") == .some(.null))
        #expect(parse.member("error")?.member("code") == -32700)
        try client.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aFetchersAnswerWithSuchANumberFailsTheAttempt() throws {
        let daemon = try DaemonProcess()
        let fetcher = try daemon.connect()
        let fetcherID = try fetcher.registerFetcher(["n"])
        let client = try daemon.connect()
        let fetch = try client.sendRequest("query.fetch", ["key": ["n"], "options": ["retry": 0]])
        let request = try fetcher.expectFetch(fetcher: fetcherID, key: ["n"])
        try fetcher.send(#"{"jsonrpc":"2.0","id":"# + request.encodedString + #","result":{"data":{"x":-1e999}}}"#)
        let reply = try client.awaitResponse(id: fetch)
        expectJSON(
            reply,
            [
                "jsonrpc": "2.0", "id": fetch,
                "error": fetchFailed([
                    "code": -32600, "message": "Malformed response",
                    "data": [
                        "reason": "number out of range (I-JSON limits numbers to IEEE 754 doubles) at result.data.x"
                    ],
                ]),
            ])
        try fetcher.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }
}
