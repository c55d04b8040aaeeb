// Engine tests of `setData` over a filter (TanStack's setQueriesData), `set` with `ifVersion`
// (compare-and-set) and `count` over a filter (issue 16 §9, §10).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct BulkAndConditionalWriteTests {
    @Test func setDataPatchesEveryMatchAndPushesItsSubscribers() throws {
        let h = EngineHarness()
        h.register("t")
        h.set(key("t", 1), ["n": 1])
        h.set(key("t", 2), ["n": 2])
        h.set(key("u"), 0)
        let (sub, _) = h.subscribe(key("t", 2), ["staleTime": 60_000])
        h.advance(10)
        let keys = try h.cache.setData(filter(["key": ["t"]]), .mergePatch(["done": true]), updatedAt: nil)
        #expect(keys == [key("t", 1), key("t", 2)])
        #expect(h.trace(of: sub) == [#"success/idle data={"done":true,"n":2}"#])
        #expect(h.cache.state(of: key("t", 1))?.data == ["n": 1, "done": true])
        #expect(h.cache.state(of: key("t", 1))?.dataUpdatedAt == h.start + 10)
        #expect(h.cache.state(of: key("u"))?.data == 0)
        #expect(h.sends.isEmpty)
    }

    @Test func setDataIsAllOrNothing() throws {
        // 40 bytes of data and key: the 32 bytes of `big` fit with ["s",1] (7) but not with the
        // longer key, so the write to the first match must not happen either.
        let limited = QueryCache(clock: ManualClock())
        limited.maxDataBytes = 40
        _ = try? limited.set(key: key("s", 1), .data(1), updatedAt: nil)
        _ = try? limited.set(key: key("s", "longer-key"), .data(2), updatedAt: nil)
        let big: JSONValue = .string(String(repeating: "x", count: 30))
        #expect(throws: CacheFailure.self) {
            _ = try limited.setData(filter(["key": ["s"]]), .data(big), updatedAt: nil)
        }
        #expect(limited.state(of: key("s", 1))?.data == 1)
        #expect(limited.state(of: key("s", "longer-key"))?.data == 2)
        #expect((try? limited.setData(filter(["key": ["s", 1]]), .data(big), updatedAt: nil)) == [key("s", 1)])
    }

    @Test func setWithIfVersionComparesAndSets() throws {
        let h = EngineHarness()
        let created = try h.cache.set(key: key("c"), .data(1), updatedAt: nil, ifVersion: 0)
        do {
            _ = try h.cache.set(key: key("c"), .data(2), updatedAt: nil, ifVersion: created.version - 1)
            Issue.record("a stale ifVersion wrote")
        } catch {
            #expect(error.code == -32009)
            #expect(error.data == ["key": ["c"], "version": .number(JSONNumber(Int(created.version)))])
        }
        #expect(h.cache.state(of: key("c"))?.data == 1)
        let written = try h.cache.set(key: key("c"), .data(3), updatedAt: nil, ifVersion: created.version)
        #expect(written.data == 3)
        #expect(throws: CacheFailure.self) {
            _ = try h.cache.set(key: key("new"), .data(1), updatedAt: nil, ifVersion: 1)
        }
        #expect(h.cache.state(of: key("new")) == nil)
    }

    @Test func countFollowsTheFilter() {
        let h = EngineHarness()
        h.register("f")
        h.set(key("f", 0), 0)
        #expect(h.cache.count(filter(nil)) == 1)
        h.fetch(key("f", 1))
        #expect(h.cache.count(filter(["fetchStatus": "fetching"])) == 1)
        h.answer(key("f", 1), 1)
        #expect(h.cache.count(filter(["fetchStatus": "fetching"])) == 0)
        #expect(h.cache.count(filter(["key": ["f"]])) == 2)
    }
}
