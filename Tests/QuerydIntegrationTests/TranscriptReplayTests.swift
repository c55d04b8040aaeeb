// Replays every protocol/conformance/*.jsonl transcript against the real daemon.

import QuerydTestSupport
import Testing

@Suite("Conformance transcripts")
struct TranscriptReplayTests {
    @Test("the conformance folder holds the transcripts")
    func folderIsPopulated() {
        #expect(Transcript.files(in: Transcript.directory).count >= 13, "no transcripts in \(Transcript.directory)")
    }

    @Test("every transcript parses and uses only known flags", arguments: Transcript.files(in: Transcript.directory))
    func parses(file: String) throws {
        let transcript = try Transcript.load(file)
        #expect(Set(transcript.flags).isSubset(of: ["--manual-clock", "--test-methods"]), "\(transcript.flags)")
        #expect(file.prefix(4).allSatisfy { $0.isNumber || $0 == "-" }, "name must be NNN-scenario.jsonl")
    }

    @Test("replay", arguments: Transcript.files(in: Transcript.directory))
    func replay(file: String) throws {
        let transcript = try Transcript.load(file)
        #expect(!transcript.steps.isEmpty)
        try TranscriptReplayer.replay(transcript)
    }

    @Test("placeholders and captures behave as documented")
    func matcherSemantics() {
        var matcher = JSONMatcher()
        #expect(
            matcher.mismatch(expected: json(#"{"a":"$any","b":"$number"}"#), actual: json(#"{"b":2,"a":[1]}"#)) == nil)
        #expect(matcher.mismatch(expected: json(#"{"b":"$number"}"#), actual: json(#"{"b":"2"}"#)) != nil)
        #expect(matcher.mismatch(expected: json(#"{"a":1}"#), actual: json(#"{"a":1,"b":2}"#)) != nil)
        #expect(matcher.mismatch(expected: json(#"{"a":1,"d":"$optional"}"#), actual: json(#"{"a":1}"#)) == nil)
        #expect(matcher.mismatch(expected: json(#"{"id":"$=f"}"#), actual: json(#"{"id":7}"#)) == nil)
        #expect(matcher.mismatch(expected: json(#"["$f"]"#), actual: json("[8]")) != nil)
        #expect(matcher.mismatch(expected: json(#"["$f"]"#), actual: json("[7]")) == nil)
        #expect(
            TranscriptReplayer.substitute(#"{"id":$f,"m":"$/cancelRequest"}"#, matcher.variables)
                == #"{"id":7,"m":"$/cancelRequest"}"#)
        #expect(
            matcher.mismatch(
                expected: json(#"[{"id":1},{"id":2}]"#), actual: json(#"[{"id":2},{"id":1}]"#),
                unorderedTopLevel: true) == nil)
        #expect(
            matcher.mismatch(
                expected: json(#"[{"id":1},{"id":2}]"#), actual: json(#"[{"id":2},{"id":2}]"#),
                unorderedTopLevel: true) != nil)
    }
}
