// The options writes create queries with are resolved once per deciding key prefix and kept
// (QueryCache+WriteOptions.swift): a write after the defaults changed (a fetcher registered or
// unregistered, its connection closed, `queries.setDefaults`) must see the new defaults, and keys
// that differ in the prefix the defaults look at must not share options.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct WriteOptionsTests {
    /// The gcTime the cached query for `key` has (nil: never collected; "absent": not cached).
    private func gcTime(_ h: EngineHarness, _ key: QueryKey) -> String {
        guard let query = h.cache.query(key) else { return "absent" }
        return query.gcTime.map(String.init) ?? "never"
    }

    private func setQueryDefaults(_ h: EngineHarness, _ prefix: [JSONValue], _ json: JSONValue) {
        do { try h.cache.setQueryDefaults(prefix: prefix, json: json, options: options(json)) } catch {
            Issue.record("setQueryDefaults: \(error)")
        }
    }

    @Test func aWriteAfterSetDefaultsGetsTheNewDefaults() {
        let h = EngineHarness()
        h.set(key("a", 1), 1)
        setQueryDefaults(h, ["a"], ["gcTime": 1000])
        h.set(key("a", 2), 2)
        setQueryDefaults(h, ["a"], ["gcTime": nil])
        h.set(key("a", 3), 3)
        setQueryDefaults(h, ["a"], [:])
        h.set(key("a", 4), 4)
        #expect(gcTime(h, key("a", 1)) == "300000")
        #expect(gcTime(h, key("a", 2)) == "1000")
        #expect(gcTime(h, key("a", 3)) == "never")
        #expect(gcTime(h, key("a", 4)) == "300000")
        // The gcTime is the one the query is collected by.
        h.advance(1000)
        #expect(gcTime(h, key("a", 2)) == "absent")
        #expect(gcTime(h, key("a", 1)) == "300000")
    }

    @Test func aWriteAfterAFetcherRegistersOrLeavesGetsItsDefaults() throws {
        let h = EngineHarness()
        h.set(key("b", 1), 1)
        let fetcher = h.register("b", defaults: ["gcTime": 2000])
        h.set(key("b", 2), 2)
        try h.cache.unregisterFetcher(fetcher, connection: EngineHarness.fetcherConnection)
        h.set(key("b", 3), 3)
        h.register("b", defaults: ["gcTime": 2500])
        h.set(key("b", 4), 4)
        h.cache.connectionClosed(EngineHarness.fetcherConnection)
        h.set(key("b", 5), 5)
        #expect(
            [1, 2, 3, 4, 5].map { gcTime(h, key("b", .number(JSONNumber($0)))) } == [
                "300000", "2000", "300000", "2500", "300000",
            ])
    }

    @Test func keysThatDifferWhereThePrefixesLookDoNotShareOptions() {
        let h = EngineHarness()
        h.register("d", 1, defaults: ["gcTime": 4000])
        h.register("e", exact: true, defaults: ["gcTime": 5000])
        setQueryDefaults(h, [["o": 1]], ["gcTime": 6000])
        // Two elements decide: ["d", 1, …] has the fetcher's defaults, ["d", 2, …] not.
        h.set(key("d", 1, "x"), 1)
        h.set(key("d", 2, "x"), 2)
        h.set(key("d", 1, "y"), 3)
        h.set(key("d", 2, "y"), 4)
        // Keys no longer than the longest prefix: the exact fetcher applies to ["e"] only.
        h.set(key("e"), 5)
        h.set(key("e", 1), 6)
        h.set(key("d", 1), 7)
        // A structured prefix element matches partially.
        h.set(key(["o": 1, "p": 2], 1), 8)
        h.set(key(["o": 2], 1), 9)
        #expect(gcTime(h, key("d", 1, "x")) == "4000")
        #expect(gcTime(h, key("d", 2, "x")) == "300000")
        #expect(gcTime(h, key("d", 1, "y")) == "4000")
        #expect(gcTime(h, key("d", 2, "y")) == "300000")
        #expect(gcTime(h, key("e")) == "5000")
        #expect(gcTime(h, key("e", 1)) == "300000")
        #expect(gcTime(h, key("d", 1)) == "4000")
        #expect(gcTime(h, key(["o": 1, "p": 2], 1)) == "6000")
        #expect(gcTime(h, key(["o": 2], 1)) == "300000")
    }

    @Test func theEncodedWriteUsesTheSameOptions() {
        let h = EngineHarness()
        func setEncoded(_ key: QueryKey) {
            _ = key.withCanonicalBytes { keyBytes in
                JSONValue.number(JSONNumber(1)).encoded.withUnsafeBytes {
                    h.cache.set(canonicalKey: keyBytes, encodedData: $0)
                }
            }
        }
        setEncoded(key("f", 1))
        setQueryDefaults(h, ["f"], ["gcTime": 700])
        setEncoded(key("f", 2))
        #expect(gcTime(h, key("f", 1)) == "300000")
        #expect(gcTime(h, key("f", 2)) == "700")
    }
}
