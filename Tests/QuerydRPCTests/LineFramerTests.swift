// LineFramer: identical line sequences for every chunking, exact length limits, EOF handling.

import QuerydRPC
import QuerydTestSupport
import Testing

/// 1 800 bytes of multi-byte UTF-8, for a long line that still fits.
let longText = String(repeating: "é€😀", count: 200)

/// Realistic inputs: CRLF, blank and whitespace-only lines, long lines, a final line without
/// newline. Each is framed with the limit given next to it.
let transcripts: [(name: String, text: String, limit: Int)] = [
    (
        "socat session",
        """
        {"jsonrpc":"2.0","method":"server.hello","id":1}\r
        \r
        {"jsonrpc":"2.0","method":"query.get","params":{"key":["todos",42]},"id":"a"}

          \t
        [{"jsonrpc":"2.0","method":"ping","id":2},{"jsonrpc":"2.0","method":"ping"}]\r
        \r\r
        {"jsonrpc":"2.0","method":"query.set","params":{"key":["t"],"data":"\(longText)"},"id":3}
        {"jsonrpc":"2.0","result":{"data":[1,2,3]},"id":"s:17"}
        """,
        4096
    ),
    (
        "over-long lines mixed with good ones",
        "short\n\(String(repeating: "x", count: 100))\nok\r\n\(String(repeating: "y", count: 64))\r\n"
            + "\(String(repeating: "z", count: 65))\r\n \n\(String(repeating: "w", count: 64))\r\r\nlast\r\n"
            + String(repeating: "q", count: 90),
        64
    ),
    (
        "terminated last line and lone CRs",
        "a\rb\n\r\n\n\n{\"x\":1}\r\n\t\r\n",
        16
    ),
]

@Suite("LineFramer")
struct LineFramerTests {
    @Test("every transcript matches the naive reference when fed all at once")
    func allAtOnce() {
        for transcript in transcripts {
            let bytes = Array(transcript.text.utf8)
            let expected = referenceEvents(bytes, maxLineBytes: transcript.limit)
            #expect(frameEvents([bytes], maxLineBytes: transcript.limit) == expected, "\(transcript.name)")
        }
    }

    @Test("the first transcript yields exactly its five messages")
    func transcriptContent() {
        let bytes = Array(transcripts[0].text.utf8)
        let events = frameEvents([bytes], maxLineBytes: 4096)
        #expect(events.count == 5)
        #expect(events.first == .line(#"{"jsonrpc":"2.0","method":"server.hello","id":1}"#))
        #expect(events.last == .line(#"{"jsonrpc":"2.0","result":{"data":[1,2,3]},"id":"s:17"}"#))
    }

    @Test("the second transcript rejects exactly the over-long lines")
    func overLongTranscript() {
        let bytes = Array(transcripts[1].text.utf8)
        let y = String(repeating: "y", count: 64)
        #expect(
            frameEvents([bytes], maxLineBytes: 64) == [
                .line("short"), .tooLong, .line("ok"), .line(y), .tooLong, .tooLong, .line("last"), .tooLong,
            ])
    }

    @Test("every split point gives the same lines")
    func everySplitPoint() {
        for transcript in transcripts {
            let bytes = Array(transcript.text.utf8)
            let expected = referenceEvents(bytes, maxLineBytes: transcript.limit)
            for cut in 0...bytes.count {
                let events = frameEvents(split(bytes, at: [cut]), maxLineBytes: transcript.limit)
                #expect(events == expected, "\(transcript.name), cut at \(cut)")
            }
        }
    }

    @Test("byte-by-byte feeding gives the same lines")
    func byteByByte() {
        for transcript in transcripts {
            let bytes = Array(transcript.text.utf8)
            let chunks = bytes.map { [$0] }
            let expected = referenceEvents(bytes, maxLineBytes: transcript.limit)
            #expect(frameEvents(chunks, maxLineBytes: transcript.limit) == expected, "\(transcript.name)")
        }
    }

    @Test("seeded random chunk sizes give the same lines")
    func randomChunks() {
        var random = SeededGenerator(seed: 0x5EED_F00D)
        for transcript in transcripts {
            let bytes = Array(transcript.text.utf8)
            let expected = referenceEvents(bytes, maxLineBytes: transcript.limit)
            for round in 0..<300 {
                var cuts: [Int] = []
                var position = 0
                while true {
                    position += Int.random(in: 0...(round % 3 == 0 ? 7 : 130), using: &random)
                    if position >= bytes.count { break }
                    cuts.append(position)
                }
                let events = frameEvents(split(bytes, at: cuts), maxLineBytes: transcript.limit)
                #expect(events == expected, "\(transcript.name), cuts \(cuts)")
            }
        }
    }

    @Test("a line of exactly maxLineBytes is accepted, one more byte is rejected, in one chunk")
    func exactLimitOneChunk() {
        let fits = String(repeating: "a", count: 10)
        let over = String(repeating: "b", count: 11)
        let input = Array("\(fits)\n\(over)\n\(fits)\r\n\(over)\r\nend".utf8)
        #expect(
            frameEvents([input], maxLineBytes: 10) == [.line(fits), .tooLong, .line(fits), .tooLong, .line("end")])
    }

    @Test("the limit holds at the exact boundary across every chunk split")
    func exactLimitAcrossChunks() {
        let fits = String(repeating: "a", count: 10)
        let over = String(repeating: "b", count: 11)
        let cases: [(input: String, expected: [FrameEvent])] = [
            ("\(fits)\nnext\n", [.line(fits), .line("next")]),
            ("\(fits)\r\nnext\n", [.line(fits), .line("next")]),
            ("\(over)\nnext\n", [.tooLong, .line("next")]),
            ("\(over)\r\nnext\n", [.tooLong, .line("next")]),
            ("\(fits)\r\r\nnext\n", [.tooLong, .line("next")]),
            (fits, [.line(fits)]),
            ("\(fits)\r", [.line(fits)]),
            (over, [.tooLong]),
        ]
        for (input, expected) in cases {
            let bytes = Array(input.utf8)
            for cut in 0...bytes.count {
                for second in cut...bytes.count {
                    let events = frameEvents(split(bytes, at: [cut, second]), maxLineBytes: 10)
                    #expect(events == expected, "\(input.debugDescription) cut at \(cut) and \(second)")
                }
            }
        }
    }

    @Test("an unfinished line is rejected as soon as it cannot fit, before its newline arrives")
    func earlyRejection() throws {
        var framer = LineFramer(maxLineBytes: 8)
        var lines: [String] = []
        let collect: (UnsafeRawBufferPointer) -> Void = { lines.append(String(decoding: $0, as: UTF8.self)) }
        try feed(&framer, "12345678", collect)
        #expect(framer.bufferedByteCount == 8)
        #expect(!framer.isDiscarding)
        #expect(throws: LineFramerError.lineTooLong(limit: 8)) {
            try feed(&framer, "9", collect)
        }
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.isDiscarding)
        try feed(&framer, String(repeating: "junk", count: 1000), collect)
        #expect(framer.bufferedByteCount == 0)
        try feed(&framer, "more junk\nok\n", collect)
        #expect(!framer.isDiscarding)
        #expect(lines == ["ok"])
    }

    @Test("lines after a rejected one in the same chunk are kept for the next call, in order")
    func remainderAfterRejection() throws {
        var framer = LineFramer(maxLineBytes: 5)
        var lines: [String] = []
        let collect: (UnsafeRawBufferPointer) -> Void = { lines.append(String(decoding: $0, as: UTF8.self)) }
        let input = Array("one\ntoolong\ntwo\nthr".utf8)
        #expect(throws: LineFramerError.lineTooLong(limit: 5)) {
            try feed(&framer, input, collect)
        }
        #expect(lines == ["one"])
        #expect(framer.bufferedByteCount == 7)
        try feed(&framer, "ee\n", collect)
        #expect(lines == ["one", "two", "three"])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("finish delivers an unterminated last line, strips its CR and skips a blank one")
    func finishAtEOF() throws {
        for (input, expected) in [
            (#"{"jsonrpc":"2.0","method":"ping","id":1}"#, [#"{"jsonrpc":"2.0","method":"ping","id":1}"#]),
            ("a\nb\r", ["a", "b"]), ("a\n \t\r", ["a"]), ("", []), ("a\n", ["a"]),
        ] {
            var framer = LineFramer(maxLineBytes: 64)
            var lines: [String] = []
            let collect: (UnsafeRawBufferPointer) -> Void = { lines.append(String(decoding: $0, as: UTF8.self)) }
            try feed(&framer, input, collect)
            try framer.finish(collect)
            #expect(lines == expected, "\(input.debugDescription)")
            #expect(framer.bufferedByteCount == 0)
            try feed(&framer, "again\n", collect)
            #expect(lines == expected + ["again"], "the framer is reusable after finish")
        }
    }

    @Test("a line inside one chunk is passed without copying; only the tail is buffered")
    func zeroCopy() throws {
        var framer = LineFramer(maxLineBytes: 64)
        let input = Array("first\r\nsecond\nthi".utf8)
        var offsets: [Int] = []
        let outcome = input.withUnsafeBytes { buffer in
            Result { () throws(LineFramerError) in
                let base = buffer.baseAddress!
                try framer.feed(buffer) { line in offsets.append(line.baseAddress! - base) }
            }
        }
        try outcome.get()
        #expect(offsets == [0, 7])
        #expect(framer.bufferedByteCount == 3)
    }
}
