// Engine tests of the write of canonical encoded bytes (`set(canonicalKey:encodedData:)`, the
// `query.set` fast path's input): the same states, versions, pushes and sharing as writing the
// parsed value, on the manual clock.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct EncodedWriteTests {
    /// Writes `data` to `key` through the encoded input, with the bytes canonical encoding gives.
    @discardableResult
    private func setEncoded(_ h: EngineHarness, _ key: QueryKey, _ data: JSONValue) -> WrittenState? {
        key.withCanonicalBytes { keyBytes in
            data.encoded.withUnsafeBytes { h.cache.set(canonicalKey: keyBytes, encodedData: $0) }
        }
    }

    /// Everything a client can see of a view but its epoch (each harness has its own).
    private func seen(_ view: QueryResult?) -> String {
        guard let view else { return "nil" }
        var bytes: [UInt8] = []
        view.write(to: &bytes)
        return seen(bytes, view)
    }

    /// The same for the state a write returns, written as the `query.set` reply writes it.
    private func seen(_ state: WrittenState?) -> String {
        guard let state else { return "nil" }
        var bytes: [UInt8] = []
        state.write(to: &bytes)
        return seen(bytes, state)
    }

    private func seen(_ bytes: [UInt8], _ view: some StateObjectSource) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.replacing(/"epoch":"[0-9a-f]+"/, with: "")
            + " dataVersion=\(view.dataVersion.map(String.init) ?? "-")"
    }

    @Test func encodedWritesMatchValueWritesStepByStep() {
        let encoded = EngineHarness()
        let general = EngineHarness()
        let (encodedSub, _) = encoded.subscribe(key("watched"))
        let (generalSub, _) = general.subscribe(key("watched"))
        let steps: [(QueryKey, JSONValue)] = [
            (key("k"), ["a": 1, "b": [true, false, .null], "c": "x"]),
            (key("k"), ["a": 1, "b": [true, false, .null], "c": "x"]),
            (key("k"), 2),
            (key("watched"), "first"),
            (key("watched"), "first"),
            (key("watched"), ["nested": ["deeper": [[], [:]]]]),
            (key("other", 3), .null),
        ]
        for (index, (key, data)) in steps.enumerated() {
            encoded.advance(Int64(index) * 10)
            general.advance(Int64(index) * 10)
            let fast = setEncoded(encoded, key, data)
            let slow = general.set(key, data)
            #expect(seen(fast) == seen(slow), "step \(index)")
            #expect(seen(encoded.cache.state(of: key)) == seen(general.cache.state(of: key)), "step \(index)")
            #expect(encoded.cache.query(key)?.getAnswer == general.cache.query(key)?.getAnswer)
            #expect(encoded.cache.query(key)?.version == general.cache.query(key)?.version)
        }
        #expect(encoded.trace(of: encodedSub) == general.trace(of: generalSub))
        #expect(encoded.trace(of: encodedSub).count == 3)
    }

    @Test func theWrittenStateOfAFailedQueryRefetchingMatchesTheValueWrite() {
        let encoded = EngineHarness()
        let general = EngineHarness()
        for h in [encoded, general] {
            h.register("e")
            let (sub, _) = h.subscribe(key("e"), ["retry": 0])
            h.advance(10)
            h.fail(key("e"))
            h.advance(10)
            h.refetch(sub)
            h.advance(10)
        }
        let fast = setEncoded(encoded, key("e"), ["v": 1])
        let slow = general.set(key("e"), ["v": 1])
        // The error's counters are kept by the write and the refetch keeps running.
        #expect(fast?.errorUpdateCount == 1 && fast?.isRefetching == true && fast?.error == nil)
        #expect(seen(fast) == seen(slow))
    }

    @Test func equalBytesKeepTheStoredEncoding() {
        let h = EngineHarness()
        setEncoded(h, key("k"), ["x": 1])
        let query = h.cache.query(key("k"))
        let block = query?.encodedDataAddress
        let dataVersion = query?.dataVersion
        h.advance(5)
        let again = setEncoded(h, key("k"), ["x": 1])
        #expect(block != nil && query?.encodedDataAddress == block)
        #expect(query?.dataVersion == dataVersion)
        #expect(again?.dataUpdateCount == 2 && again?.dataUpdatedAt == h.start + 5)
        // Other bytes are other data: a new encoding and data version.
        setEncoded(h, key("k"), ["x": 2])
        #expect(query?.dataVersion != dataVersion)
        #expect(query?.state.data == ["x": 2])
    }

    @Test func aSubscribedQueryParsesTheNewBytesForItsPush() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"))
        setEncoded(h, key("k"), ["v": 1])
        setEncoded(h, key("k"), ["v": 2])
        #expect(h.trace(of: sub) == ["success/fetching data={\"v\":1}", "success/fetching data={\"v\":2}"])
        #expect(h.cache.query(key("k"))?.state.data == ["v": 2])
    }

    @Test func dataOverTheLimitIsLeftToTheGeneralWrite() {
        let h = EngineHarness()
        h.cache.maxDataBytes = 20
        #expect(setEncoded(h, key("k"), "a string longer than the limit") == nil)
        #expect(h.stateText(key("k")) == "absent")
        #expect(setEncoded(h, key("k"), 1) != nil)
        #expect(h.stateText(key("k")) == "success/idle data=1")
    }

    /// A write refused for its size leaves the query as it was, its version included (it used to
    /// go up twice: the write, then its revert).
    @Test func aWriteOverTheLimitLeavesTheVersionAsItWas() throws {
        let h = EngineHarness()
        h.cache.maxDataBytes = 20
        let written = try h.cache.set(key: key("k"), .data(1), updatedAt: nil)
        #expect(throws: CacheFailure.self) {
            _ = try h.cache.set(key: key("k"), .data("a string longer than the limit"), updatedAt: nil)
        }
        #expect(h.cache.query(key("k"))?.version == written.version)
        #expect(h.stateText(key("k")) == "success/idle data=1")
    }
}
