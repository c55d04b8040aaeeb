// The bad-input catalogue (server-anchors.md section 7), framing, bytes and JSON structure part:
// what each hostile input is, and the exact lines the daemon answers with. Entries are numbered
// as in the catalogue; the runner is HostileInputCatalogueTests.

extension HostileInput {
    /// The daemon flags every entry runs under (small limits so the limit entries stay small).
    static let flags = [
        "--test-methods", "--manual-clock", "--max-message-bytes", "4096", "--max-batch", "10", "--max-depth", "32",
    ]

    /// The `$/closing` line that follows the -32600 of a line over `--max-message-bytes`.
    static let closingForMessageBytes =
        #"{"jsonrpc":"2.0","method":"$/closing","params":{"limit":"max-message-bytes","reason":"a message line "#
        + #"is longer than 4096 bytes"}}"#

    /// A well-formed ping request, for entries built from it.
    static let ping = #"{"jsonrpc":"2.0","id":1,"method":"server.ping"}"#

    /// Every entry, in catalogue order.
    static var catalogue: [HostileInput] { framingAndStructure + envelopeAndState }

    /// Entries 1 to 30.
    static let framingAndStructure: [HostileInput] = [
        HostileInput(
            1, "an empty line is ignored", .open,
            .line(#""#),
            replies: []),
        HostileInput(
            2, "a whitespace-only line is ignored", .open,
            .escaped(#" %09 %0D%0A"#),
            replies: []),
        HostileInput(
            3, "a CRLF-terminated request is answered", .open,
            .escaped(#"{"jsonrpc":"2.0","id":1,"method":"server.ping"}%0D%0A"#),
            replies: [
                result(#"1"#, #"{}"#)
            ]),
        HostileInput(
            4, "a lone CR between two values is a parse error", .open,
            .escaped(
                #"{"jsonrpc":"2.0","id":1,"method":"server.ping"}%0D{"jsonrpc":"2.0","id":1,"metho"#
                    + #"d":"server.ping"}%0A"#),
            replies: [
                parseError(48, #"trailing characters after the JSON value (one JSON value per line)"#)
            ]),
        HostileInput(
            5, "two JSON values on one line are a parse error", .open,
            .line(
                #"{"jsonrpc":"2.0","id":1,"method":"server.ping"} {"jsonrpc":"2.0","id":1,"method""#
                    + #":"server.ping"}"#),
            replies: [
                parseError(48, #"trailing characters after the JSON value (one JSON value per line)"#)
            ]),
        HostileInput(
            6, "a pretty-printed request fails line by line", .open,
            .escaped(#"{%0A  "jsonrpc": "2.0",%0A  "id": 1%0A}%0A"#),
            replies: [
                parseError(1, #"unexpected end of input (unterminated object)"#),
                parseError(11, #"trailing characters after the JSON value (one JSON value per line)"#),
                parseError(6, #"trailing characters after the JSON value (one JSON value per line)"#),
                parseError(0, #"unexpected character '}'"#),
            ]),
        HostileInput(
            7, "a line over --max-message-bytes is refused and the connection closed", .closed,
            .line(
                #"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":[""# + String(repeating: "x", count: 5000)
                    + #""]}"#),
            replies: [
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","d"#
                    + #"ata":{"limit":4096,"reason":"message exceeds 4096 bytes"}}}"#,
                HostileInput.closingForMessageBytes,
            ]),
        HostileInput(
            8, "an endless line without a newline is refused and the connection closed", .closed,
            .repeated(0x00, count: 9000),
            replies: [
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","d"#
                    + #"ata":{"limit":4096,"reason":"message exceeds 4096 bytes"}}}"#,
                HostileInput.closingForMessageBytes,
            ]),
        HostileInput(
            9, "a last line without a newline is answered at EOF", .halfClose,
            .text(#"{"jsonrpc":"2.0","id":1,"method":"server.ping"}"#),
            replies: [
                result(#"1"#, #"{}"#)
            ]),
        HostileInput(
            10, "requests before a half-close are all answered", .halfClose,
            .escaped(
                #"{"jsonrpc":"2.0","id":"a","method":"server.ping"}%0A{"jsonrpc":"2.0","id":"b","m"#
                    + #"ethod":"server.ping"}%0A"#),
            replies: [
                result(#""a""#, #"{}"#),
                result(#""b""#, #"{}"#),
            ]),
        HostileInput(
            12, "a raw NUL byte outside strings is a parse error", .open,
            .escaped(#"{"jsonrpc":"2.0","id":1,%00"method":"server.ping"}%0A"#),
            replies: [
                parseError(24, #"expected a member name in double quotes"#)
            ]),
        HostileInput(
            12, "a raw control character inside a string is a parse error", .open,
            .escaped(#"{"jsonrpc":"2.0","id":1,"method":"server%01ping"}%0A"#),
            replies: [
                parseError(40, #"raw control character 0x01 in a string (must be escaped)"#)
            ]),
        HostileInput(
            13, "an escaped NUL in a method name matches no method", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"server.ping\u0000"}"#),
            replies: [
                methodNotFound(#"1"#, #"server.ping\u0000"#)
            ]),
        HostileInput(
            14, "invalid UTF-8 is a parse error", .open,
            .escaped(#"{"jsonrpc":"2.0","id":1,"method":"%C3("}%0A"#),
            replies: [
                parseError(34, #"invalid UTF-8"#)
            ]),
        HostileInput(
            14, "a lone continuation byte is a parse error", .open,
            .escaped(#"{"jsonrpc":"2.0","id":1,"method":"%80"}%0A"#),
            replies: [
                parseError(34, #"invalid UTF-8"#)
            ]),
        HostileInput(
            15, "overlong UTF-8 is a parse error", .open,
            .escaped(#"{"jsonrpc":"2.0","id":1,"method":"%C0%AF"}%0A"#),
            replies: [
                parseError(34, #"invalid UTF-8"#)
            ]),
        HostileInput(
            15, "a UTF-8 encoded surrogate is a parse error", .open,
            .escaped(#"{"jsonrpc":"2.0","id":1,"method":"%ED%A0%80"}%0A"#),
            replies: [
                parseError(34, #"invalid UTF-8"#)
            ]),
        HostileInput(
            16, "a byte order mark is a parse error", .open,
            .escaped(#"%EF%BB%BF{"jsonrpc":"2.0","id":1,"method":"server.ping"}%0A"#),
            replies: [
                parseError(0, #"a UTF-8 byte order mark (BOM) is not allowed"#)
            ]),
        HostileInput(
            17, "UTF-16 input is a parse error", .open,
            .escaped(#"{%00"%00j%00s%00o%00n%00r%00p%00c%00"%00:%00"%002%00.%000%00"%00}%00%0A"#),
            replies: [
                parseError(1, #"expected a member name in double quotes"#)
            ]),
        HostileInput(
            18, "a lone surrogate escape is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":["\ud800"]}"#),
            replies: [
                parseError(56, #"lone surrogate \\uD800"#)
            ]),
        HostileInput(
            19, "a surrogate pair and raw non-BMP UTF-8 are echoed", .open,
            .escaped(
                #"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":["\ud83d\ude00","%F0%9F%98"#
                    + #"%80"]}%0A"#),
            replies: [
                result(#"1"#, #"["😀","😀"]"#)
            ]),
        HostileInput(
            20, "raw U+2028 is accepted and escaped on output", .open,
            .escaped(#"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":["a%E2%80%A8b"]}%0A"#),
            replies: [
                result(#"1"#, #"["a\u2028b"]"#)
            ]),
        HostileInput(
            21, "a terminal escape sequence is data, escaped on output", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":["\u001b[2J"]}"#),
            replies: [
                result(#"1"#, #"["\u001b[2J"]"#)
            ]),
        HostileInput(
            22, "nesting deeper than --max-depth is a parse error", .open,
            .line(String(repeating: "[", count: 2000)),
            replies: [
                parseError(32, #"nesting deeper than 32 levels"#)
            ]),
        HostileInput(
            22, "nesting one level past --max-depth inside a request is a parse error", .open,
            .line(
                #"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":[[[[[[[[[[[[[[[[[[[[[[[[[["#
                    + #"[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#),
            replies: [
                parseError(85, #"nesting deeper than 32 levels"#)
            ]),
        HostileInput(
            24, "a number beyond double range in params is invalid params", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":[1e999999]}"#),
            replies: [
                invalidParams("1", "0", "number out of range (I-JSON limits numbers to IEEE 754 doubles)")
            ]),
        HostileInput(
            25, "a number with a leading zero is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":01,"method":"server.ping"}"#),
            replies: [
                parseError(22, #"leading zeros are not allowed in numbers"#)
            ]),
        HostileInput(
            25, "a number with a plus sign is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":+1,"method":"server.ping"}"#),
            replies: [
                parseError(22, #"unexpected character '+' (not a valid JSON number)"#)
            ]),
        HostileInput(
            25, "a number starting with a dot is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":.5,"method":"server.ping"}"#),
            replies: [
                parseError(22, #"unexpected character '.' (not a valid JSON number)"#)
            ]),
        HostileInput(
            25, "NaN is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":NaN,"method":"server.ping"}"#),
            replies: [
                parseError(22, #"unexpected character 'N'"#)
            ]),
        HostileInput(
            26, "a duplicate envelope member is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"server.ping","method":"server.stats"}"#),
            replies: [
                parseError(47, #"duplicate member name \"method\""#)
            ]),
        HostileInput(
            26, "a duplicate member inside params is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"],"key":["b"]}}"#),
            replies: [
                parseError(67, #"duplicate member name \"key\""#)
            ]),
        HostileInput(
            27, "a trailing comment is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"server.ping"} // hi"#),
            replies: [
                parseError(48, #"trailing characters after the JSON value (one JSON value per line)"#)
            ]),
        HostileInput(
            27, "a trailing comma is a parse error", .open,
            .line(#"{"jsonrpc":"2.0","id":1,"method":"server.ping",}"#),
            replies: [
                parseError(47, #"trailing comma before '}'"#)
            ]),
        HostileInput(
            27, "single quotes are a parse error", .open,
            .line(#"{'jsonrpc':'2.0','id':1,'method':'server.ping'}"#),
            replies: [
                parseError(1, #"expected a member name in double quotes (single quotes are not allowed)"#)
            ]),
        HostileInput(
            28, "a top-level number is an invalid request", .open,
            .line(#"42"#),
            replies: [
                invalidRequest(#"null"#, #"a JSON-RPC message must be an object"#)
            ]),
        HostileInput(
            28, "a top-level null is an invalid request", .open,
            .line(#"null"#),
            replies: [
                invalidRequest(#"null"#, #"a JSON-RPC message must be an object"#)
            ]),
        HostileInput(
            29, "an empty batch gets one invalid-request reply", .open,
            .line(#"[]"#),
            replies: [
                invalidRequest(#"null"#, #"an empty batch is not a request"#)
            ]),
        HostileInput(
            30, "a batch of non-objects gets an array of invalid-request replies", .open,
            .line(#"[1,2,3]"#),
            replies: [
                #"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request",""#
                    + #"data":{"reason":"a JSON-RPC message must be an object"}}},{"jsonrpc":"2.0","id":"#
                    + #"null,"error":{"code":-32600,"message":"Invalid Request","data":{"reason":"a JSON"#
                    + #"-RPC message must be an object"}}},{"jsonrpc":"2.0","id":null,"error":{"code":-3"#
                    + #"2600,"message":"Invalid Request","data":{"reason":"a JSON-RPC message must be an"#
                    + #" object"}}}]"#
            ]),
        HostileInput(
            30, "a batch holding an empty array", .open,
            .line(#"[[]]"#),
            replies: [
                #"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request",""#
                    + #"data":{"reason":"an empty batch is not a request"}}}]"#
            ]),
    ]
}
