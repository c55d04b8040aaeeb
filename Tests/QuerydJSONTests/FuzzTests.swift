// Seeded pseudo-random inputs: the parser either returns a value that re-encodes and re-parses
// to the same value and bytes, or throws with an in-range offset. It never crashes.

import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Parser fuzzing with a fixed seed")
struct FuzzTests {
    static let seeds: [String] = [
        #"{"jsonrpc":"2.0","id":123,"method":"query.get","params":{"key":["todos",42,{"filter":"done"}]}}"#,
        #"[1,-2.5e-3,0,true,false,null,"a\"b\\c\u00e9\ud83d\ude00",{"":[]}]"#,
        #"{"a":{"b":{"c":[[[]]]}},"n":123456789012345678901234567890,"d":1e300}"#,
        "[\"é€😀\", \"\u{2028}\", 9007199254740993, -0.0, {\"x\":\"\\n\\t\"}]",
    ]

    /// Bytes that make random inputs likely to get deep into the grammar.
    static let alphabet: [UInt8] =
        Array(#"{}[],:"\/0123456789-+.eEtrufalsn ubfnrtu"#.utf8)
        + [
            0x09, 0x0A, 0x0D, 0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xA9, 0xE2, 0x80, 0xA8, 0xED, 0xA0, 0xF0, 0x9F,
            0xF4, 0xF5, 0xFF, 0xEF, 0xBB,
        ]

    static func check(_ input: [UInt8]) {
        switch parseResult(input, maxDepth: 32) {
        case .success(let value):
            let encoded = value.encoded
            #expect(!encoded.contains(0x0A) && !encoded.contains(0x0D))
            let reparsed = parseResult(encoded, maxDepth: 32)
            #expect(reparsed == .success(value), "input: \(input)")
            if case .success(let again) = reparsed {
                #expect(again.encoded == encoded)
            }
        case .failure(let error):
            #expect(error.offset >= 0 && error.offset <= input.count, "input: \(input)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func randomByteStrings() {
        var random = SeededGenerator(seed: 0x5EED_0001)
        var accepted = 0
        for _ in 0..<10_000 {
            let length = random.below(48)
            var input: [UInt8] = []
            for _ in 0..<length {
                input.append(
                    random.below(4) == 0 ? UInt8(random.below(256)) : Self.alphabet[random.below(Self.alphabet.count)])
            }
            if parseError(input, maxDepth: 32) == nil { accepted += 1 }
            Self.check(input)
        }
        // Some random strings ("1", "[]", " 0 ") are valid; the count pins the generator.
        #expect(accepted > 0)
    }

    @Test func mutationsOfValidDocuments() {
        var random = SeededGenerator(seed: 0x5EED_0002)
        var accepted = 0
        for _ in 0..<10_000 {
            var input = Array(Self.seeds[random.below(Self.seeds.count)].utf8)
            for _ in 0..<(1 + random.below(4)) {
                let position = random.below(input.count + 1)
                switch random.below(5) {
                case 0 where position < input.count:
                    input.remove(at: position)
                case 1:
                    input.insert(Self.alphabet[random.below(Self.alphabet.count)], at: position)
                case 2 where position < input.count:
                    input[position] = UInt8(random.below(256))
                case 3 where position < input.count:
                    let end = min(input.count, position + random.below(8))
                    input.insert(contentsOf: input[position..<end], at: position)
                default:
                    input = Array(input[..<position])
                }
            }
            if parseError(input, maxDepth: 32) == nil { accepted += 1 }
            Self.check(input)
        }
        #expect(accepted > 0)
    }

    @Test func seedsThemselvesRoundTrip() throws {
        for seed in Self.seeds {
            let value = try JSONParser.parse(seed)
            #expect(try JSONParser.parse(value.encoded) == value)
        }
    }
}
