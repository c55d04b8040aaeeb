// The bad-input catalogue (server-anchors.md section 7), batches, envelope, responses, state and
// keys part: what each hostile input is, and the exact lines the daemon answers with.

extension HostileInput {
    /// Entries 31 to 86.
    static let envelopeAndState: [HostileInput] = [
        HostileInput(
            31, "a batch over --max-batch is refused whole", .open,
            .line("[" + Array(repeating: HostileInput.ping, count: 11).joined(separator: ",") + "]"),
            replies: [
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32006,"message":"Limit exceeded","da"#
                    + #"ta":{"limit":"max-batch","max":10,"retryable":false}}}"#
            ]),
        HostileInput(
            32, "a batch of notifications writes nothing", .open,
            .line(
                #"[{"jsonrpc":"2.0","method":"server.ping"},{"jsonrpc":"2.0","method":"server.ping"#
                    + #""}]"#),
            replies: []),
        HostileInput(
            34, "responses inside a batch are dropped, requests answered", .open,
            .line(
                #"[{"jsonrpc":"2.0","id":5,"result":{}},{"jsonrpc":"2.0","id":1,"method":"server.p"#
                    + #"ing"}]"#),
            replies: [
                #"[{"jsonrpc":"2.0","id":1,"result":{}}]"#
            ]),
        HostileInput(
            36, "a missing jsonrpc member is an invalid request with the id echoed", .open,
            .line(#"{"id":1,"method":"server.ping"}"#),
            replies: [
                invalidRequest(#"1"#, #"jsonrpc must be the string \"2.0\""#)
            ]),
        HostileInput(
            37, "jsonrpc 1.0 is an invalid request", .open,
            .line(#"{"jsonrpc":"1.0","id":1,"method":"server.ping"}"#),
            replies: [
                invalidRequest(#"1"#, #"jsonrpc must be the string \"2.0\""#)
            ]),
        HostileInput(
            37, "a numeric jsonrpc is an invalid request", .open,
            .line(#"{"jsonrpc":2.0,"id":1,"method":"server.ping"}"#),
            replies: [
                invalidRequest(#"1"#, #"jsonrpc must be the string \"2.0\""#)
            ]),
        HostileInput(
            38, "a numeric method is an invalid request", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":1}"#),
            replies: [
                invalidRequest(#"1"#, #"method must be a string"#)
            ]),
        HostileInput(
            39, "an empty method name is not found", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":""}"#),
            replies: [
                methodNotFound(#"1"#, #""#)
            ]),
        HostileInput(
            40, "an unknown rpc. method is not found", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"rpc.foo"}"#),
            replies: [
                methodNotFound(#"1"#, #"rpc.foo"#)
            ]),
        HostileInput(
            41, "a wrong-case method is not found", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"Server.Ping"}"#),
            replies: [
                methodNotFound(#"1"#, #"Server.Ping"#)
            ]),
        HostileInput(
            42, "a long method name is not found, and echoed cut to 256 bytes", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":""# + String(repeating: "m", count: 300) + #""}"#),
            replies: [
                methodNotFound(#"1"#, String(repeating: "m", count: 256) + "…")
            ]),
        HostileInput(
            43, "string params are an invalid request", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"server.ping","params":"x"}"#),
            replies: [
                invalidRequest(#"1"#, #"params must be an object or an array when present"#)
            ]),
        HostileInput(
            43, "null params are an invalid request", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"server.ping","params":null}"#),
            replies: [
                invalidRequest(#"1"#, #"params must be an object or an array when present"#)
            ]),
        HostileInput(
            44, "positional params to a by-name method are invalid params", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":[["a"]]}"#),
            replies: [
                invalidParams(#"1"#, #"params"#, #"must be an object (by-name params)"#)
            ]),
        HostileInput(
            45, "an unknown params member is invalid params", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"],"kee":1}}"#),
            replies: [
                invalidParams(#"1"#, #"kee"#, #"unknown parameter; expected key"#)
            ]),
        HostileInput(
            46, "a wrongly typed param is invalid params", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":"todos"}}"#),
            replies: [
                invalidParams(#"1"#, #"key"#, #"query key must be a non-empty JSON array"#)
            ]),
        HostileInput(
            47, "an object id is an invalid request with id null", .open,
            .line(#"{"jsonrpc":"2.0","id":{},"method":"server.ping"}"#),
            replies: [
                invalidRequest(#"null"#, #"id must be a string, a number or null"#)
            ]),
        HostileInput(
            47, "a boolean id is an invalid request with id null", .open,
            .line(#"{"jsonrpc":"2.0","id":true,"method":"server.ping"}"#),
            replies: [
                invalidRequest(#"null"#, #"id must be a string, a number or null"#)
            ]),
        HostileInput(
            48, "a null id is refused as a request id, answered with id null", .open,
            .line(#"{"jsonrpc":"2.0","id":null,"method":"server.ping"}"#),
            replies: [
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":{"reas"#
                    + #"on":"a request id must be a string or a number, not null"}}}"#
            ]),
        HostileInput(
            49, "a fractional id is echoed", .open,
            .line(#"{"jsonrpc":"2.0","id":1.5,"method":"server.ping"}"#),
            replies: [
                result(#"1.5"#, #"{}"#)
            ]),
        HostileInput(
            50, "a huge integer id is echoed exactly", .open,
            .line(#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"server.ping"}"#),
            replies: [
                result(#"12345678901234567890"#, #"{}"#)
            ]),
        HostileInput(
            53, "a request carrying a result is an invalid request", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"server.ping","result":1}"#),
            replies: [
                invalidRequest(#"1"#, #"a request cannot also carry result or error"#)
            ]),
        HostileInput(
            53, "a response with both result and error is ignored", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}"#),
            replies: []),
        HostileInput(
            54, "a response to no request is ignored", .open,
            .line(#"{"jsonrpc":"2.0","id":77,"result":{}}"#),
            replies: []),
        HostileInput(
            70, "$/cancelRequest for an unknown id is ignored", .open,
            .line(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":42}}"#),
            replies: []),
        HostileInput(
            71, "an unknown $/ notification is ignored", .open,
            .line(#"{"jsonrpc":"2.0","method":"$/progress","params":{}}"#),
            replies: []),
        HostileInput(
            71, "an unknown $/ request is not found", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"$/progress","params":{}}"#),
            replies: [
                methodNotFound(#"1"#, #"$/progress"#)
            ]),
        HostileInput(
            81, "an HTTP request gets parse errors and the connection stays usable", .open,
            .escaped(#"GET / HTTP/1.1%0D%0AHost: localhost%0D%0A%0D%0A"#),
            replies: [
                parseError(0, #"unexpected character 'G'"#),
                parseError(0, #"unexpected character 'H'"#),
            ]),
        HostileInput(
            84, "an object key is invalid params", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":{}}}"#),
            replies: [
                invalidParams(#"1"#, #"key"#, #"query key must be a non-empty JSON array"#)
            ]),
        HostileInput(
            85, "a key with NUL, slash and dot-dot is opaque data", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a\u0000/../b"]}}"#),
            replies: [
                result(#"1"#, #"null"#)
            ]),
        HostileInput(
            86, "1 and 1.0 name one query, \"1\" another", .open,
            .escaped(
                #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["todo",1],"data":""#
                    + #"one"}}%0A{"jsonrpc":"2.0","id":2,"method":"query.get","params":{"key":["todo",1."#
                    + #"0]}}%0A{"jsonrpc":"2.0","id":3,"method":"query.get","params":{"key":["todo","1"]"#
                    + #"}}%0A"#),
            replies: [
                result(
                    #"1"#,
                    #"{"data":"one","dataUpdateCount":1,"dataUpdatedAt":1700000000000,"error":null,"er"#
                        + #"rorUpdateCount":0,"errorUpdatedAt":0,"failureCount":0,"failureReason":null,"fetc"#
                        + #"hStatus":"idle","isError":false,"isFetched":true,"isFetching":false,"isInvalidat"#
                        + #"ed":false,"isLoading":false,"isPaused":false,"isPending":false,"isPlaceholderDat"#
                        + #"a":false,"isRefetching":false,"isStale":true,"isSuccess":true,"key":["todo",1],""#
                        + #"status":"success","version":2}"#),
                result(#"2"#, #"{"data":"one","dataUpdatedAt":1700000000000}"#),
                result(#"3"#, #"null"#),
            ]),
    ]
}
