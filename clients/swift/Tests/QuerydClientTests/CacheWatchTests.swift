// `watchCache`: the snapshot, the events of the whole cache in order, and a new snapshot after the
// daemon restarts.

import QuerydClient
import QuerydJSON
import Testing

@Suite(.timeLimit(.minutes(1))) struct CacheWatchTests {
    /// The next `changed` events of `watch`, as `type key` lines, until `count` were seen.
    private func nextEvents(_ iterator: inout AsyncStream<CacheWatchEvent>.Iterator, count: Int) async -> [String] {
        var lines: [String] = []
        while lines.count < count, let event = await iterator.next() {
            guard case .changed(let events) = event else { continue }
            for event in events {
                let key = event["state"]?["key"] ?? event["key"] ?? event["prefix"]
                lines.append("\(event["type"]?.stringValue ?? "?") \(key?.encodedString ?? "-")")
            }
        }
        return lines
    }

    @Test func theSnapshotThenEveryEventInOrder() async throws {
        let daemon = try TestDaemon()
        let watcher = try await connectedClient(daemon)
        let writer = try await connectedClient(daemon)
        try await writer.set(["before"], data: 1)
        let watch = try await watcher.watchCache()
        #expect(watch.snapshot["queries"]?.arrayValue?.count == 1)
        var events = watch.events.makeAsyncIterator()
        guard case .snapshot? = await events.next() else {
            Issue.record("the stream starts with the snapshot")
            return
        }
        try await writer.set(["a"], data: 1)
        try await writer.ping()
        _ = try await writer.call("queries.remove", ["filter": ["key": ["a"]]])
        #expect(await nextEvents(&events, count: 2) == [#"query.added ["a"]"#, #"query.removed ["a"]"#])
        await watcher.unwatchCache(watch)
    }

    @Test func aRestartedDaemonGivesANewSnapshot() async throws {
        let daemon = try TestDaemon()
        let watcher = try await connectedClient(daemon)
        let watch = try await watcher.watchCache()
        var events = watch.events.makeAsyncIterator()
        _ = await events.next()
        try daemon.restart()
        var sawLoss = false
        while let event = await events.next() {
            if case .connectionLost = event { sawLoss = true }
            if case .snapshot(let snapshot) = event {
                #expect(snapshot["watch"] != nil)
                break
            }
        }
        #expect(sawLoss)
        let writer = try await connectedClient(daemon)
        try await writer.set(["after"], data: 2)
        #expect(await nextEvents(&events, count: 1) == [#"query.added ["after"]"#])
    }
}
