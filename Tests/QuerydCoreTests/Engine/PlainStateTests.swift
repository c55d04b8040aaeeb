// The `query.set` reply's templates (`WrittenState.writePlainState`) against the general state
// writer, byte for byte: times, counts and versions of every width, data, keys long and short,
// staleness; the states the templates must not write (an error kept, a fetch running) are left
// to the general writer; and the state writer's digit helpers against Swift's own printing.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct PlainStateTests {
    private func write(_ cache: QueryCache, _ key: QueryKey, _ data: JSONValue) -> WrittenState? {
        key.withCanonicalBytes { keyBytes in
            data.encoded.withUnsafeBytes { cache.set(canonicalKey: keyBytes, encodedData: $0) }
        }
    }

    /// The templates' bytes, or nil when the state is not of the plain shape.
    private func plain(_ state: WrittenState) -> String? {
        guard let room = state.plainStateRoom else { return nil }
        let bytes = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
            count = state.writePlainState(at: buffer.baseAddress!) - buffer.baseAddress!
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func general(_ state: WrittenState) -> String {
        var bytes: [UInt8] = []
        state.write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theTemplatesWriteTheGeneralWritersBytes() {
        let starts: [Int64] = [
            0, 7, 42, 999_999_999_999, 1_000_000_000_000, 1_700_000_000_123, 9_999_999_999_990,
            10_000_000_000_000, 123_456_789_012_345_678,
        ]
        let writes: [(QueryKey, JSONValue)] = [
            (key("k"), ["i": 1, "pad": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]),
            (key("m", 123_456), 0),
            (key("a key longer than the inline bytes of a key", ["n": [1, 2]]), ["x": [true, .null, "é"]]),
            (key("k"), ["i": 1, "pad": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]),
        ]
        for start in starts {
            let clock = ManualClock(start: start)
            let cache = QueryCache(clock: clock)
            // Twelve rounds: counts and versions from one digit to two.
            for round in 0..<12 {
                for (key, data) in writes {
                    guard let state = write(cache, key, data) else {
                        Issue.record("write refused: \(key)")
                        continue
                    }
                    #expect(plain(state) == general(state), "start \(start), round \(round), \(key)")
                    let fresh = WrittenState(query: state.query, isStale: false, encodedEpoch: state.encodedEpoch)
                    #expect(plain(fresh) == general(fresh), "start \(start), round \(round), \(key), fresh")
                }
                clock.advance(by: Int64(round) * 997)
            }
            let last = write(cache, key("k"), 1)
            #expect(last?.dataUpdateCount == 25 && last?.version ?? 0 >= 25)
        }
    }

    @Test func aStateWithAnErrorOrAFetchRunningIsLeftToTheGeneralWriter() {
        let failed = EngineHarness()
        failed.register("e")
        failed.subscribe(key("e"), ["retry": 0])
        failed.advance(10)
        failed.fail(key("e"))
        failed.advance(10)
        let afterError = write(failed.cache, key("e"), ["v": 1])
        #expect(afterError?.errorUpdateCount == 1 && afterError?.fetchStatus == .idle)
        #expect(afterError.map(plain) == .some(nil))

        let fetching = EngineHarness()
        fetching.register("f")
        fetching.subscribe(key("f"))
        let duringFetch = write(fetching.cache, key("f"), ["v": 1])
        #expect(duringFetch?.fetchStatus == .fetching && duringFetch?.errorUpdateCount == 0)
        #expect(duringFetch.map(plain) == .some(nil))
        // Once the fetch has answered, the query has the plain shape again.
        fetching.answer(key("f"), ["v": 2])
        let settled = write(fetching.cache, key("f"), ["v": 3])
        #expect(settled.map(plain) == settled.map(general))
    }

    @Test func eightDigitsAreTheDecimalDigits() {
        var values: [UInt64] = [0, 1, 9, 10, 99, 100, 9_999, 10_000, 10_001, 99_999_999, 12_345_678, 10_000_000]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 { values.append(UInt64.random(in: 0..<100_000_000, using: &generator)) }
        for value in values {
            let word = TimeDigits.eightDigits(value).littleEndian
            let text = withUnsafeBytes(of: word) { String(decoding: $0, as: UTF8.self) }
            let expected = String(value)
            #expect(text == String(repeating: "0", count: 8 - expected.count) + expected)
        }
    }

    @Test func timesOfEveryWidthAreWrittenAsNumbers() {
        var values: [Int64] = [
            0, 5, -1, 999_999_999_999, 1_000_000_000_000, 1_000_000_000_001, 1_700_000_000_000, 1_999_999_999_999,
            9_999_999_999_999, 10_000_000_000_000, .max, .min,
        ]
        for _ in 0..<1_000 { values.append(Int64.random(in: 1_000_000_000_000..<10_000_000_000_000)) }
        for value in values {
            let bytes = [UInt8](unsafeUninitializedCapacity: 64) { buffer, count in
                var writer = StateWriter(at: buffer.baseAddress!)
                writer.time(#","t":"#, value)
                count = writer.at - buffer.baseAddress!
            }
            #expect(String(decoding: bytes, as: UTF8.self) == #","t":\#(value)"#)
        }
    }
}
