// `cache.watch` against the real daemon: the snapshot, exact event sequences for queries added,
// changed and removed, registrations and a fetch's start and settlement, the key filter, unwatch,
// and coalescing under a watcher that never reads (bounded memory, newest state last).

import QuerydJSON
import Testing

/// One event of a `cache.changed`, compactly: `type key` plus, for a query state,
/// `status/fetchStatus count=n`, and for a settled fetch `ok` or `failed`.
private func describe(_ event: JSONValue) -> String {
    let type = event.member("type")?.asString ?? "?"
    if let state = event.member("state") {
        let status = state.member("status")?.asString ?? "?"
        let fetchStatus = state.member("fetchStatus")?.asString ?? "?"
        let count = state.member("dataUpdateCount")?.asInt ?? -1
        return "\(type) \(state.member("key")?.encodedString ?? "?") \(status)/\(fetchStatus) count=\(count)"
    }
    if let key = event.member("key") {
        let outcome = event.member("succeeded").map { $0 == true ? " ok" : " failed" } ?? ""
        return "\(type) \(key.encodedString)\(outcome)"
    }
    if let prefix = event.member("prefix") { return "\(type) \(prefix.encodedString)" }
    return type
}

extension LineClient {
    /// The events of the next `cache.changed`, described.
    fileprivate func nextWatchEvents(watch: JSONValue) throws -> [String] {
        let notification = try nextNotification(method: "cache.changed")
        #expect(notification.member("params")?.member("watch") == watch)
        guard case .array(let events)? = notification.member("params")?.member("events") else {
            throw IntegrationError("cache.changed without events: \(notification.encodedString)")
        }
        return events.map(describe)
    }
}

@Suite("cache.watch")
struct CacheWatchTests {
    @Test func queriesAddedChangedAndRemovedArriveInOrder() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let writer = try daemon.connect()
        _ = try writer.result("query.set", ["key": ["old"], "data": 0])
        let watcher = try daemon.connect()
        let reply = try watcher.result("cache.watch", [:])
        let watch = try #require(reply.member("watch"))
        guard case .array(let queries)? = reply.member("queries") else {
            Issue.record("no queries in \(reply.encodedString)")
            return
        }
        #expect(queries.map { $0.member("key") } == [["old"]])
        #expect(queries.first?.member("data") == nil, "states carry no data unless asked")
        #expect(queries.first?.member("observers") == 0)
        #expect(reply.member("fetchers") == [] && reply.member("mutators") == [] && reply.member("mutations") == [])

        _ = try writer.result("query.set", ["key": ["a"], "data": 1])
        #expect(try watcher.nextWatchEvents(watch: watch) == [#"query.added ["a"] success/idle count=1"#])
        _ = try writer.result("query.set", ["key": ["a"], "data": 2])
        #expect(try watcher.nextWatchEvents(watch: watch) == [#"query.changed ["a"] success/idle count=2"#])
        _ = try writer.result("queries.remove", ["filter": ["key": ["a"]]])
        #expect(try watcher.nextWatchEvents(watch: watch) == [#"query.removed ["a"]"#])

        _ = try watcher.result("cache.unwatch", ["watch": watch])
        _ = try writer.result("query.set", ["key": ["b"], "data": 3])
        try watcher.expectSilence(for: 0.2)
        let unknown = try watcher.call("cache.unwatch", ["watch": watch])
        expectError(unknown, code: -32005, id: unknown.member("id") ?? nil)
        try watcher.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func registrationsAndAFetchFromStartToSettlement() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let watcher = try daemon.connect()
        let watch = try #require(try watcher.result("cache.watch", ["data": true]).member("watch"))
        let fetcher = try daemon.connect()
        let fetcherID = try fetcher.registerFetcher(["f"])
        #expect(try watcher.nextWatchEvents(watch: watch) == [#"fetcher.registered ["f"]"#])

        let caller = try daemon.connect()
        let call = try caller.sendRequest("query.fetch", ["key": ["f", 1]])
        #expect(
            try watcher.nextWatchEvents(watch: watch) == [
                #"query.added ["f",1] pending/fetching count=0"#, #"fetch.started ["f",1]"#,
            ])
        let request = try fetcher.expectFetch(fetcher: fetcherID, key: ["f", 1])
        try fetcher.respond(id: request, result: ["data": "value"])
        _ = try caller.awaitResponse(id: call)
        let settled = try watcher.nextNotification(method: "cache.changed")
        guard case .array(let events)? = settled.member("params")?.member("events") else {
            Issue.record("no events in \(settled.encodedString)")
            return
        }
        #expect(events.map(describe) == [#"query.changed ["f",1] success/idle count=1"#, #"fetch.settled ["f",1] ok"#])
        #expect(events.first?.member("state")?.member("data") == "value", "data: true shows the data")

        fetcher.close()
        #expect(try watcher.nextWatchEvents(watch: watch) == [#"fetcher.unregistered ["f"]"#])
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aKeyFilterNarrowsQueryEventsAndOtherFiltersAreRefused() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let watcher = try daemon.connect()
        let refused = try watcher.call("cache.watch", ["filter": ["key": ["t"], "type": "active"]])
        expectError(refused, code: -32602, id: refused.member("id") ?? nil)
        let watch = try #require(try watcher.result("cache.watch", ["filter": ["key": ["t"]]]).member("watch"))
        let writer = try daemon.connect()
        _ = try writer.result("query.set", ["key": ["u"], "data": 1])
        _ = try writer.result("query.set", ["key": ["t", 1], "data": 2])
        #expect(try watcher.nextWatchEvents(watch: watch) == [#"query.added ["t",1] success/idle count=1"#])
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aSubscriberSeeingItsDataTurnStaleIsAChangeWithTheObserversStaleness() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock"])
        let client = try daemon.connect()
        _ = try client.result("query.set", ["key": ["s"], "data": 1])
        _ = try client.result("query.subscribe", ["key": ["s"], "options": ["staleTime": 1000]])
        let watcher = try daemon.connect()
        let reply = try watcher.result("cache.watch", [:])
        let watch = try #require(reply.member("watch"))
        #expect(reply.member("queries")?.asArray?.first?.member("isStale") == false, "fresh for its observer")
        _ = try client.result("clock.advance", ["ms": 1000])
        let changed = try watcher.nextNotification(method: "cache.changed")
        #expect(changed.member("params")?.member("watch") == watch)
        let event = changed.member("params")?.member("events")?.asArray?.first
        #expect(event?.member("type") == "query.changed")
        #expect(event?.member("state")?.member("isStale") == true)
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aWatcherThatNeverReadsGetsCoalescedEventsWithTheNewestStateAndMemoryStaysBounded() throws {
        let daemon = try DaemonProcess(flags: ["--manual-clock", "--max-batch", "1000"])
        let watcher = try daemon.connect()
        _ = try #require(try watcher.result("cache.watch", ["data": true]).member("watch"))
        let writer = try daemon.connect()
        let baseline = daemon.residentBytes
        let total = 20_000
        let batch = 1_000
        for start in stride(from: 1, through: total, by: batch) {
            try writer.send(LineClient.hotKeyWrites(from: start, count: batch))
            _ = try writer.readLine(timeout: 30)
        }
        let growth = daemon.residentBytes - baseline
        #expect(growth < 50 << 20, "RSS grew by \(growth) bytes")
        var notifications = 0
        var newest = 0
        while newest != total {
            let notification = try watcher.nextNotification(method: "cache.changed", timeout: 10)
            notifications += 1
            guard case .array(let events)? = notification.member("params")?.member("events") else { continue }
            for event in events {
                newest = event.member("state")?.member("data")?.member("n")?.asInt ?? newest
            }
        }
        #expect(notifications < total / 10, "\(notifications) notifications for \(total) writes")
        try watcher.expectHealthy()
        #expect(try daemon.stop() == .exited(0))
    }
}
