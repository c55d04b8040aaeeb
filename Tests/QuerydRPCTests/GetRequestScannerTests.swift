// The `query.get` line scanner against the parser plus `RPCDecoding.decode`: what it accepts, the
// id and key bytes it finds for it, and the lines it must leave to the general path.

import QuerydJSON
import QuerydRPC
import QuerydTestSupport
import Testing

/// Scans `text`; when the scanner accepts it, checks that the parser and decoder read the same
/// request (method `query.get`, params exactly `{"key": K}`), that the id's bytes are what
/// `RPCID.write` writes, and that the canonical key bytes are `K`'s canonical encoding.
/// Returns the id's text and the key's canonical text, or nil when the scanner declines.
func scanGet(_ text: String, maxDepth: Int = 512) -> (id: String, key: String)? {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { line -> (id: String, key: String)? in
        expectScanAgrees(line, maxDepth: maxDepth)
    }
}

/// The differential check behind `scanGet`, on raw bytes (also used by the random test).
@discardableResult
func expectScanAgrees(_ line: UnsafeRawBufferPointer, maxDepth: Int = 512) -> (id: String, key: String)? {
    guard let found = GetRequestScanner.scan(line, maxDepth: maxDepth) else { return nil }
    var key: [UInt8] = []
    found.appendCanonicalKey(from: line, to: &key)
    let id = Array(line[found.id])
    let text = String(decoding: line, as: UTF8.self)
    guard case .success(.request(let request))? = genericDecode(line, maxDepth: maxDepth) else {
        Issue.record("scanner accepted a line the decoder does not read as a request: \(text)")
        return nil
    }
    var written: [UInt8] = []
    request.id.write(to: &written)
    #expect(written == id, "id bytes differ for \(text)")
    #expect(request.method == "query.get", "method differs for \(text)")
    guard case .object(let params)? = request.params, params.count == 1, let value = params["key"],
        case .array(let elements) = value, !elements.isEmpty
    else {
        Issue.record("params are not exactly a non-empty key for \(text)")
        return nil
    }
    #expect(value.encoded == key, "canonical key differs for \(text)")
    return (String(decoding: id, as: UTF8.self), String(decoding: key, as: UTF8.self))
}

@Suite("query.get line scanning")
struct GetRequestScannerTests {
    @Test("plain query.get lines are recognised, with the id's and the key's canonical bytes")
    func accepted() {
        let cases: [(line: String, id: String, key: String)] = [
            (
                #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["bench","hit"]}}"#, "1",
                #"["bench","hit"]"#
            ),
            (#"{"jsonrpc":"2.0","id":0,"method":"query.get","params":{"key":["a"]}}"#, "0", #"["a"]"#),
            (#"{"jsonrpc":"2.0","id":-5,"method":"query.get","params":{"key":["a"]}}"#, "-5", #"["a"]"#),
            (
                #"{"jsonrpc":"2.0","id":999999999999999999,"method":"query.get","params":{"key":["a"]}}"#,
                "999999999999999999", #"["a"]"#
            ),
            (#"{"jsonrpc":"2.0","id":"abc","method":"query.get","params":{"key":["a"]}}"#, #""abc""#, #"["a"]"#),
            (#"{"jsonrpc":"2.0","id":"","method":"query.get","params":{"key":["a"]}}"#, #""""#, #"["a"]"#),
            (#"{"params":{"key":["a",1]},"method":"query.get","id":"x y","jsonrpc":"2.0"}"#, #""x y""#, #"["a",1]"#),
            (
                " { \"jsonrpc\" : \"2.0\" ,\t\"id\" : 7 , \"method\" : \"query.get\" , \"params\" : { \"key\" : [ \"a b\" , -12 , [ ] , { } ] } } \r",
                "7", #"["a b",-12,[],{}]"#
            ),
            (
                #"{"jsonrpc":"2.0","id":2,"method":"query.get","params":{"key":["o",{"a":2,"b":{"c":[true,false,null]}}]}}"#,
                "2", #"["o",{"a":2,"b":{"c":[true,false,null]}}]"#
            ),
            (
                #"{"jsonrpc":"2.0","id":3,"method":"query.get","params":{"key":[ {"A":1, "a":2, "ab":3} ]}}"#,
                "3", #"[{"A":1,"a":2,"ab":3}]"#
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"query.get\",\"params\":{\"key\":[\"~\u{7F}\"]}}", "4",
                "[\"~\u{7F}\"]"
            ),
        ]
        for item in cases {
            let found = scanGet(item.line)
            #expect(found?.id == item.id, "id of \(item.line)")
            #expect(found?.key == item.key, "key of \(item.line)")
        }
    }

    @Test("every other line is left to the general path")
    func declined() {
        let lines = [
            #"{"jsonrpc":"2.0","method":"query.get","params":{"key":["a"]}}"#,  // a notification
            #"{"jsonrpc":"2.0","id":null,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":1.5,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":1e2,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":-0,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":01,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":1234567890123456789,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":"a\"b","method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":"é","method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.gets","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"1.0","id":1,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"]},"x":0}"#,
            #"{"jsonrpc":"2.0","id":1,"id":2,"method":"query.get","params":{"key":["a"]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"],"options":{}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[ ]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":"a"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":[["a"]]}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a\nb"]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["\u00e9"]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["é"]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",1.0]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",1e0]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",-0]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",007]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",12345678901234567890]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[{"b":1,"a":2}]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[{"a":1,"a":2}]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[tru]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"]}} x"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"]}"#,
            #"[{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"]}}]"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"\u006bey":["a"]}}"#,
            "",
            "{",
        ]
        for line in lines {
            #expect(scanGet(line) == nil, "accepted \(line)")
        }
    }

    @Test("strings are read a word at a time with the byte-by-byte verdict, wherever the odd byte is")
    func stringBytesAtEveryPosition() {
        // Bytes a plain string refuses, and the edges it accepts, at each position of strings
        // long enough to be read eight bytes at a time.
        let refused: [UInt8] = [0x00, 0x09, 0x1F, 0x5C, 0x80, 0xC3, 0xFF]
        let accepted: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x7F]
        for length in [8, 9, 15, 16, 17, 24, 25, 31, 32, 33, 40, 41] {
            for position in 0..<length {
                for byte in refused + accepted {
                    var text = Array(repeating: UInt8(ascii: "a"), count: length)
                    text[position] = byte
                    let line =
                        Array(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[""#.utf8) + text
                        + Array(#""]}}"#.utf8)
                    let found = line.withUnsafeBytes { expectScanAgrees($0) }
                    #expect((found != nil) == accepted.contains(byte), "byte \(byte) at \(position) of \(length)")
                    if accepted.contains(byte) {
                        #expect(found?.key == "[\"" + String(decoding: text, as: UTF8.self) + "\"]")
                    }
                }
            }
        }
        // A quote ends the string wherever it falls in a word: the rest must be the line's.
        for position in 0..<16 {
            let text = String(repeating: "b", count: position)
            #expect(
                scanGet(
                    #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[""#
                        + text + #"","tail-of-key"]}}"#)?.key == "[\"" + text + #"","tail-of-key"]"#)
        }
    }

    @Test("integers are read a word at a time: every length, and the byte after them at every place")
    func integerLengthsAndEnds() {
        for length in 1...20 {
            let digits = String((0..<length).map { Character(String(($0 % 9) + 1)) })
            let accepted = length <= 18
            let asID = scanGet(#"{"jsonrpc":"2.0","id":\#(digits),"method":"query.get","params":{"key":["a"]}}"#)
            #expect(asID?.id == (accepted ? digits : nil), "id of \(length) digits")
            let inKey = scanGet(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[\#(digits),"a"]}}"#)
            #expect(inKey?.key == (accepted ? "[\(digits),\"a\"]" : nil), "key integer of \(length) digits")
            // Bytes just outside the digits' range, and a non-ASCII one, end the number badly.
            for end: UInt8 in [0x2F, 0x3A, 0xB0, 0xB9] {
                let line =
                    Array(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["#.utf8)
                    + Array(digits.utf8) + [end] + Array(#"]}}"#.utf8)
                #expect(line.withUnsafeBytes { expectScanAgrees($0) } == nil, "\(length) digits then \(end)")
            }
        }
    }

    @Test("a compact line naming another method is declined at once; another layout of params is not")
    func otherMethodsAndLayouts() {
        #expect(scanGet(#"{"jsonrpc":"2.0","id":1,"method":"server.ping","params":{"key":["a"]}}"#) == nil)
        #expect(scanGet(#"{"jsonrpc":"2.0","id":1,"method":"query.get ","params":{"key":["a"]}}"#) == nil)
        #expect(scanGet(#"{"jsonrpc":"2.0","id":1,"method":"query.get", "params":{"key":["a"]}}"#)?.key == #"["a"]"#)
        #expect(scanGet(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{ "key":["a"]}}"#)?.key == #"["a"]"#)
    }

    @Test("nesting is refused past maxDepth, as the parser counts it")
    func depth() {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[[["a"]]]}}"#
        #expect(scanGet(line, maxDepth: 5)?.key == #"[[["a"]]]"#)
        #expect(scanGet(line, maxDepth: 4) == nil)
        #expect(Array(line.utf8).withUnsafeBytes { genericDecode($0, maxDepth: 4) } == nil)
        let object = #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[{"a":{}}]}}"#
        #expect(scanGet(object, maxDepth: 5) != nil)
        #expect(scanGet(object, maxDepth: 4) == nil)
        #expect(scanGet(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a"]}}"#, maxDepth: 2) == nil)
    }

    @Test("a known key is accepted without a scan only when the rest of the line is exactly it and `}}`")
    func knownKey() {
        let known = Array(#"["bench","hit"]"#.utf8)
        func scan(_ text: String) -> GetRequestLine? {
            Array(text.utf8).withUnsafeBytes { line in
                known.withUnsafeBytes { GetRequestScanner.scan(line, maxDepth: 512, knownKey: $0) }
            }
        }
        let line = #"{"jsonrpc":"2.0","id":42,"method":"query.get","params":{"key":["bench","hit"]}}"#
        let found = scan(line)
        let scanned = Array(line.utf8).withUnsafeBytes { GetRequestScanner.scan($0, maxDepth: 512) }
        #expect(found?.isKnownKey == true)
        #expect(scanned?.isKnownKey == false)
        #expect(found?.id == scanned?.id && found?.key == scanned?.key && found?.keyIsCompact == true)
        // Another key, the known key as a prefix, or anything after `}}`: scanned as any line.
        let other = scan(#"{"jsonrpc":"2.0","id":42,"method":"query.get","params":{"key":["bench","miss"]}}"#)
        #expect(other?.isKnownKey == false)
        #expect(other != nil)
        let longer = scan(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["bench","hit"],1]}}"#)
        #expect(longer == nil)
        #expect(scan(line + " ")?.isKnownKey == false)
        #expect(scan(line + "}") == nil)
        #expect(scan(String(line.dropLast(2)) + "} }")?.isKnownKey == false)
        #expect(scan(String(line.dropLast())) == nil)
    }

    @Test("random variations of a query.get line never disagree with the decoder")
    func randomLines() {
        var random = SeededGenerator(seed: 20_261_123)
        let pieces = [
            "{", "}", "[", "]", ",", ":", " ", "\t", #""jsonrpc""#, #""2.0""#, #""id""#, #""method""#,
            #""query.get""#, #""params""#, #""key""#, #""a""#, #""b""#, "1", "-1", "0", "-0", "01", "1.5", "1e3",
            "true", "false", "null", #""\n""#, "é", #""é""#, "\"",
        ]
        let base = Array(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",{"b":[1]}]}}"#.utf8)
        var accepted = 0
        for _ in 0..<3000 {
            let bytes = randomlyEdited(base, pieces: pieces, edits: 1...3, using: &random)
            if bytes.withUnsafeBytes({ expectScanAgrees($0) }) != nil { accepted += 1 }
        }
        #expect(accepted > 0)
    }
}
