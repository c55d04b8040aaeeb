// `--persist`: the real daemon keeps query data in SQLite across restarts. A kill -9 after a flush
// loses nothing that was flushed; restored queries come back stale (invalidated) and idle, and a
// subscriber with a fetcher revalidates them; SIGTERM flushes what was written just before it;
// --persist-buster and --persist-max-age drop data at start; a second daemon cannot share the file.

import Glibc
import QuerydJSON
import Testing

@Suite("Persistence across restarts")
struct PersistenceRestartTests {
    /// A private directory for one test's persistence file, removed afterwards.
    final class StoreDirectory {
        let path: String
        var file: String { path + "/cache.db" }

        init() throws {
            var template = Array("/tmp/qd-persist-it-XXXXXX".utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                throw IntegrationError.system("mkdtemp", errno: errno)
            }
            path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        }

        deinit {
            for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) }
            rmdir(path)
        }
    }

    /// The flags of a manual-clock daemon persisting to `store`.
    static func flags(_ store: StoreDirectory, flushMs: Int = 50, extra: [String] = []) -> [String] {
        ["--manual-clock", "--log-level", "debug", "--persist", store.file, "--persist-flush-ms", String(flushMs)]
            + extra
    }

    /// Waits (10 ms polls, at most 5 s) until the daemon's log contains `text`.
    static func waitForLog(_ daemon: DaemonProcess, containing text: String) throws {
        let deadline = Clock.now + 5
        while Clock.now < deadline {
            if daemon.logTail(maxBytes: 1 << 20).contains(text) { return }
            usleep(10_000)
        }
        throw IntegrationError("the daemon never logged \"\(text)\"\n\(daemon.logTail())")
    }

    static func itemKey(_ index: Int) -> JSONValue { ["item", .number(JSONNumber(index))] }

    static func itemData(_ index: Int) -> JSONValue {
        ["index": .number(JSONNumber(index)), "name": .string("item \(index)"), "tags": ["a", nil, 1.5]]
    }

    @Test(
        "kill -9 after a flush: 100 queries come back stale and idle, a removal stays removed, a subscriber revalidates"
    )
    func killNineRestart() throws {
        let store = try StoreDirectory()
        do {
            let first = try DaemonProcess(flags: Self.flags(store))
            let client = try first.connect()
            for index in 0..<100 {
                _ = try client.result("query.set", ["key": Self.itemKey(index), "data": Self.itemData(index)])
            }
            try Self.waitForLog(first, containing: "(100 since start)")
            #expect(
                try client.result("queries.remove", ["filter": ["key": Self.itemKey(99), "exact": true]]) == [
                    "matched": 1
                ])
            try Self.waitForLog(first, containing: "(101 since start)")
            first.kill9()
            #expect(first.waitForExit(seconds: 0) == .signaled(SIGKILL))
        }
        let second = try DaemonProcess(flags: Self.flags(store))
        let client = try second.connect()
        try Self.waitForLog(second, containing: "persistence: restored 99 of 99 queries")
        #expect(
            try client.result("query.get", ["key": Self.itemKey(7)]) == [
                "data": Self.itemData(7), "dataUpdatedAt": .number(JSONNumber(clockStart)),
            ])
        #expect(try client.result("query.get", ["key": Self.itemKey(99)]) == nil)
        expectJSON(
            try client.result("query.state", ["key": Self.itemKey(42)]),
            queryState(
                Self.itemKey(42), status: "success", data: Self.itemData(42), dataUpdatedAt: clockStart,
                dataUpdateCount: 1, isInvalidated: true, isStale: true))
        let listed = try client.result("queries.list", [:])
        guard case .array(let states) = listed else { throw IntegrationError("queries.list: \(listed.encodedString)") }
        #expect(states.count == 99)
        for state in states {
            let index = state.member("key")?.item(1)?.asInt ?? -1
            #expect(state.member("data") == Self.itemData(index), "\(state.encodedString)")
            #expect(state.member("isInvalidated") == true && state.member("fetchStatus") == "idle")
            #expect(state.member("status") == "success" && state.member("dataUpdateCount") == 1)
        }

        // A subscriber sees the restored data while its fetcher revalidates it.
        let fetcher = try second.connect()
        let fid = try fetcher.registerFetcher(["item"])
        let subscribed = try client.result("query.subscribe", ["key": Self.itemKey(7)])
        expectJSON(
            subscribed,
            [
                "subscription": "$number",
                "state": queryState(
                    Self.itemKey(7), status: "success", fetchStatus: "fetching", data: Self.itemData(7),
                    dataUpdatedAt: clockStart, dataUpdateCount: 1, isInvalidated: true, isStale: true),
            ])
        let request = try fetcher.expectFetch(fetcher: fid, key: Self.itemKey(7))
        try fetcher.respond(id: request, result: ["data": ["fresh": true]])
        let changed = try client.nextNotification(method: "query.changed")
        expectJSON(
            changed.member("params")?.member("state") ?? nil,
            queryState(
                Self.itemKey(7), status: "success", data: ["fresh": true], dataUpdatedAt: clockStart,
                dataUpdateCount: 2, isInvalidated: false, isStale: true))
        client.close()
        fetcher.close()
        #expect(try second.stop() == .exited(0))
    }

    @Test("SIGTERM flushes writes made just before it; without a flush a kill -9 loses them")
    func gracefulShutdownFlushes() throws {
        let store = try StoreDirectory()
        // A ten-minute interval: no timed flush happens during the test.
        let flags = Self.flags(store, flushMs: 600_000)
        do {
            let daemon = try DaemonProcess(flags: flags)
            let client = try daemon.connect()
            _ = try client.result("query.set", ["key": ["lost"], "data": 1])
            daemon.kill9()
        }
        do {
            let daemon = try DaemonProcess(flags: flags)
            let client = try daemon.connect()
            #expect(try client.result("query.get", ["key": ["lost"]]) == nil)
            _ = try client.result("query.set", ["key": ["kept", 1], "data": ["v": 1]])
            _ = try client.result("query.set", ["key": ["kept", 2], "data": "two", "updatedAt": 1_600_000_000_000])
            _ = try client.result("query.set", ["key": ["kept", 1], "mergePatch": ["w": 2]])
            client.close()
            #expect(try daemon.stop() == .exited(0))
            #expect(daemon.logTail().contains("persistence: wrote 2 changes at shutdown (2 since start)"))
        }
        let daemon = try DaemonProcess(flags: flags + ["--persist-max-age", "1000000000000"])
        let client = try daemon.connect()
        #expect(
            try client.result("query.get", ["key": ["kept", 1]]) == [
                "data": ["v": 1, "w": 2], "dataUpdatedAt": .number(JSONNumber(clockStart)),
            ])
        #expect(
            try client.result("query.get", ["key": ["kept", 2]]) == ["data": "two", "dataUpdatedAt": 1_600_000_000_000])
        #expect(try client.result("query.state", ["key": ["kept", 1]]).member("dataUpdateCount") == 2)
        client.close()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test("--persist-max-age drops older data at start; another --persist-buster drops everything")
    func maxAgeAndBuster() throws {
        let store = try StoreDirectory()
        do {
            let daemon = try DaemonProcess(flags: Self.flags(store, extra: ["--persist-buster", "v1"]))
            let client = try daemon.connect()
            let edge = clockStart - 5000
            _ = try client.result("query.set", ["key": ["edge"], "data": 1, "updatedAt": .number(JSONNumber(edge))])
            _ = try client.result("query.set", ["key": ["old"], "data": 2, "updatedAt": .number(JSONNumber(edge - 1))])
            client.close()
            #expect(try daemon.stop() == .exited(0))
        }
        do {
            let daemon = try DaemonProcess(
                flags: Self.flags(store, extra: ["--persist-buster", "v1", "--persist-max-age", "5000"]))
            let client = try daemon.connect()
            #expect(try client.result("query.get", ["key": ["edge"]]).member("data") == 1)
            #expect(try client.result("query.get", ["key": ["old"]]) == nil)
            #expect(daemon.logTail().contains("persistence: restored 1 of 1 queries"))
            #expect(daemon.logTail().contains("(1 older than the max age, 0 unreadable)"))
            client.close()
            #expect(try daemon.stop() == .exited(0))
        }
        let daemon = try DaemonProcess(flags: Self.flags(store, extra: ["--persist-buster", "v2"]))
        let client = try daemon.connect()
        #expect(try client.result("query.get", ["key": ["edge"]]) == nil)
        #expect(daemon.logTail().contains(#"persistence: emptied \#(store.file) (buster "v1" replaced by "v2")"#))
        client.close()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test("a second daemon on the same persistence file refuses to start and leaves no socket")
    func fileInUse() throws {
        let store = try StoreDirectory()
        let first = try DaemonProcess(flags: Self.flags(store))
        let socket = DaemonProcess.temporarySocketPath()
        let (status, output) = try DaemonProcess.run(arguments: ["serve", "--socket", socket] + Self.flags(store))
        #expect(status == .exited(1), "\(output)")
        #expect(output.contains("\(store.file) is in use by another process"), "\(output)")
        #expect(access(socket, F_OK) != 0)
        let client = try first.connect()
        try client.expectHealthy()
        client.close()
        #expect(try first.stop() == .exited(0))
    }
}
