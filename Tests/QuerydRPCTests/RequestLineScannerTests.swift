// The fast paths' one-pass scanner (`RequestLineScanner`) against the two scanners it stands for:
// a `query.get` line exactly when `GetRequestScanner` accepts the line, a `query.set` line exactly
// when `SetRequestScanner` does, with the same parts, and neither for every other line.

import QuerydRPC
import QuerydTestSupport
import Testing

@Suite struct RequestLineScannerTests {
    /// What a scan found: a `query.get` line, a `query.set` line, or neither.
    private enum Found: Equatable {
        case get(GetRequestLine)
        case set(SetRequestLine)
        case other
    }

    /// What the two scanners say of `line`, as the one-pass scanner should say it.
    private func expected(_ line: UnsafeRawBufferPointer, maxDepth: Int, knownKey: UnsafeRawBufferPointer?) -> Found {
        if let found = GetRequestScanner.scan(line, maxDepth: maxDepth, knownKey: knownKey) { return .get(found) }
        if let found = SetRequestScanner.scan(line, maxDepth: maxDepth) { return .set(found) }
        return .other
    }

    @discardableResult
    private func expectAgreement(_ bytes: [UInt8], maxDepth: Int = 128, known: String? = nil) -> Found {
        let knownBytes = known.map { Array($0.utf8) }
        return bytes.withUnsafeBytes { line in
            func check(_ knownKey: UnsafeRawBufferPointer?) -> Found {
                var set: SetRequestLine?
                let get = RequestLineScanner.scan(line, maxDepth: maxDepth, knownKey: knownKey, set: &set)
                #expect(get == nil || set == nil, "both found in \(String(decoding: bytes, as: UTF8.self))")
                let found: Found = get.map { .get($0) } ?? set.map { .set($0) } ?? .other
                #expect(
                    found == expected(line, maxDepth: maxDepth, knownKey: knownKey),
                    "\(String(decoding: bytes, as: UTF8.self))")
                return found
            }
            guard let knownBytes else { return check(nil) }
            return knownBytes.withUnsafeBytes { check($0) }
        }
    }

    private static let getLine = #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",{"b":[1]}]}}"#
    private static let setLine =
        #"{"jsonrpc":"2.0","id":"w","method":"query.set","params":{"key":["m",12],"data":{"pad":"xxxxxxxxxxxxxxxxxxxxxxx","i":3}}}"#

    @Test func eachLineIsTheFastPathItsScannerSays() {
        let lines = [
            Self.getLine, Self.setLine,
            #"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"key":["k"],"data":[1,{"a":null}]}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"key":["k"],"data":{"a":1,"a":2}}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"key":["k"],"data":1,"updatedAt":5}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"key":[ "k" ],"data":1}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"key":["k"],"data":{"a": 1}}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"key":[],"data":1}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"data":1,"key":["k"]}}"#,
            #"{"id":7,"jsonrpc":"2.0","method":"query.set","params":{"key":["k"],"data":1}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.sets","params":{"key":["k"],"data":1}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.state","params":{"key":["k"]}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.get", "params":{"key":["k"]}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.get","params":{"key":[ "k" ]}}"#,
            #"{"params":{"key":["a",1]},"method":"query.get","id":"x y","jsonrpc":"2.0"}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"query.set","params":{"key":["k"],"data":"é"}}"#,
            "", "{",
        ]
        for line in lines { expectAgreement(Array(line.utf8)) }
        #expect(expectAgreement(Array(Self.setLine.utf8)) != .other)
        #expect(expectAgreement(Array(Self.getLine.utf8), known: #"["a",{"b":[1]}]"#) != .other)
        // The nesting limit is each scanner's.
        for maxDepth in 1...6 {
            expectAgreement(Array(Self.getLine.utf8), maxDepth: maxDepth)
            expectAgreement(Array(Self.setLine.utf8), maxDepth: maxDepth)
        }
    }

    @Test func randomVariationsAgree() {
        var random = SeededGenerator(seed: 20_261_125)
        let pieces = [
            "{", "}", "[", "]", ",", ":", " ", #""jsonrpc""#, #""2.0""#, #""id""#, #""method""#, #""query.get""#,
            #""query.set""#, #""params""#, #""key""#, #""data""#, #""a""#, "1", "-0", "1.5", "true", "null", "é",
            "\"", "\\",
        ]
        var kinds = (get: 0, set: 0)
        for base in [Self.getLine, Self.setLine].map({ Array($0.utf8) }) {
            for _ in 0..<2000 {
                switch expectAgreement(randomlyEdited(base, pieces: pieces, edits: 1...2, using: &random)) {
                case .get: kinds.get += 1
                case .set: kinds.set += 1
                case .other: break
                }
            }
        }
        #expect(kinds.get > 0 && kinds.set > 0)
    }
}
