// Defaults by key prefix without being a fetcher or mutator (queries.setDefaults,
// mutations.setDefaults): the longest prefix wins, entries sit above the fetchers' registration
// defaults and below the call's own options, and mutation defaults merge under the run's options.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct DefaultsTests {
    private func setQueryDefaults(_ h: EngineHarness, _ prefix: [JSONValue], _ json: JSONValue) {
        do { try h.cache.setQueryDefaults(prefix: prefix, json: json, options: options(json)) } catch {
            Issue.record("setQueryDefaults: \(error)")
        }
    }

    private func resolved(_ h: EngineHarness, _ key: QueryKey, _ json: JSONValue? = nil) -> ResolvedOptions {
        h.cache.resolve(options(json), for: key, defaultRetry: 3)
    }

    @Test func theLongestMatchingPrefixWinsMemberByMemberAndOnlyPrefixesOfTheKeyApply() {
        let h = EngineHarness()
        setQueryDefaults(h, ["a", "b"], ["staleTime": 200])
        setQueryDefaults(h, ["a"], ["staleTime": 100, "retry": 5])
        let deep = resolved(h, key("a", "b", "c"))
        #expect(deep.staleTime == .milliseconds(200) && deep.retry == .count(5))
        let shallow = resolved(h, key("a"))
        #expect(shallow.staleTime == .milliseconds(100) && shallow.retry == .count(5))
        #expect(resolved(h, key("z")).staleTime == .milliseconds(0))
        #expect(h.cache.queryDefaultsEntries(for: key("a", "b")).map(\.prefix) == [["a"], ["a", "b"]])
        #expect(h.cache.queryDefaultsEntries(for: nil).map(\.prefix) == [["a", "b"], ["a"]])
    }

    @Test func entriesSitAboveFetcherRegistrationDefaultsAndBelowTheCallsOptions() {
        let h = EngineHarness()
        h.register("a", defaults: ["staleTime": 50, "gcTime": 10, "retry": 1])
        setQueryDefaults(h, ["a"], ["staleTime": 100, "retry": 2])
        let plain = resolved(h, key("a", 1))
        #expect(plain.staleTime == .milliseconds(100) && plain.gcTime == 10 && plain.retry == .count(2))
        let own = resolved(h, key("a", 1), ["staleTime": 300])
        #expect(own.staleTime == .milliseconds(300) && own.retry == .count(2))
    }

    @Test func settingAPrefixAgainReplacesItAndAnEmptyObjectRemovesIt() {
        let h = EngineHarness()
        setQueryDefaults(h, ["a"], ["staleTime": 100])
        setQueryDefaults(h, ["a"], ["retry": 0])
        #expect(resolved(h, key("a")).staleTime == .milliseconds(0))
        #expect(resolved(h, key("a")).retry == .count(0))
        setQueryDefaults(h, ["a"], [:])
        #expect(h.cache.queryDefaultsEntries(for: nil).isEmpty)
        #expect(resolved(h, key("a")).retry == .count(3))
    }

    @Test func aDefaultRetryDrivesASubscriptionsFetch() {
        let h = EngineHarness()
        h.register("r")
        setQueryDefaults(h, ["r"], ["retry": 1, "retryDelay": 10])
        let (id, _) = h.subscribe(key("r"))
        h.fail(key("r"))
        h.advance(10)
        h.fail(key("r"))
        #expect(h.sends.count == 2)
        #expect(h.trace(of: id).last == "error/idle error=-32001 failures=2 invalidated")
    }

    @Test func tooManyPrefixesAreRefusedWithLimitExceeded() {
        let h = EngineHarness()
        for n in 0..<PrefixDefaults<QueryOptions>.capacity {
            setQueryDefaults(h, [.number(JSONNumber(n))], ["retry": 1])
        }
        #expect(throws: CacheFailure.self) {
            try h.cache.setQueryDefaults(prefix: ["over"], json: ["retry": 1], options: options(["retry": 1]))
        }
        // Replacing an existing prefix is still allowed.
        setQueryDefaults(h, [0], ["retry": 2])
    }

    @Test func mutationDefaultsMergeUnderTheRunsOwnOptionsLongestPrefixLast() throws {
        let h = MutationHarness()
        try h.mutations.setDefaults(prefix: ["m"], json: ["retry": 1, "retryDelay": 10, "scope": "m"])
        try h.mutations.setDefaults(prefix: ["m", "x"], json: ["retryDelay": 20])
        let merged = try h.mutations.options(for: key("m", "x"), json: ["scope": "own"])
        #expect(merged.retry == .count(1) && merged.retryDelay == .fixed(20) && merged.scope == "own")
        #expect(try h.mutations.options(for: key("n"), json: nil).retry == .count(0))
        #expect(throws: OptionsError.self) { try h.mutations.options(for: key("m"), json: ["retry": "x"]) }
        #expect(
            h.mutations.defaultsEntries(for: key("m", "x", 1)).map(\.json) == [
                ["retry": 1, "retryDelay": 10, "scope": "m"], ["retryDelay": 20],
            ])
    }
}
