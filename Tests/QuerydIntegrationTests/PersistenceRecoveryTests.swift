// `--persist` against damaged files and odd rows, over the real daemon: random bytes, a truncated
// file and a garbage schema page refuse the start with a message naming the file and the remedy;
// `--persist-recover` moves such a file aside (with its -wal and -shm) and starts empty; a row
// written "in the future" comes back as written at the restart; restored data is back before the
// socket accepts; and the cache epoch the store keeps survives a restart.

import Glibc
import QuerydJSON
import Testing

@Suite("Persistence: damaged files and restore")
struct PersistenceRecoveryTests {
    typealias Store = PersistenceRestartTests.StoreDirectory

    /// Every file name in `directory` other than . and ..
    static func files(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Removes what a recovery left in the store's directory (the moved-aside files).
    static func removeMovedFiles(_ store: Store) {
        for name in files(in: store.path) where name.contains(".corrupt-") { unlink(store.path + "/" + name) }
    }

    static func writeFile(_ path: String, bytes: [UInt8], at offset: Int = 0, truncate: Bool = true) throws {
        let fd = open(path, O_WRONLY | O_CREAT | (truncate ? O_TRUNC : 0), 0o600)
        guard fd >= 0 else { throw IntegrationError.system("open \(path)", errno: errno) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else { throw IntegrationError.system("pwrite \(path)", errno: errno) }
    }

    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    /// A store with `count` queries written by a daemon that then stopped cleanly.
    static func populatedStore(count: Int) throws -> Store {
        let store = try Store()
        let daemon = try DaemonProcess(flags: PersistenceRestartTests.flags(store, extra: ["--max-batch", "1000"]))
        let client = try daemon.connect()
        try setItems(client, count: count)
        client.close()
        #expect(try daemon.stop() == .exited(0))
        return store
    }

    /// Sets items 0..<count in batches of 1000.
    static func setItems(_ client: LineClient, count: Int) throws {
        var first = 0
        while first < count {
            let batch = (first..<min(count, first + 1000)).map { index -> String in
                let key = PersistenceRestartTests.itemKey(index).encodedString
                let data = PersistenceRestartTests.itemData(index).encodedString
                return
                    #"{"jsonrpc":"2.0","id":\#(index),"method":"query.set","params":{"key":\#(key),"data":\#(data)}}"#
            }
            try client.send("[" + batch.joined(separator: ",") + "]")
            guard case .array(let replies) = try client.readJSON(), replies.count == batch.count else {
                throw IntegrationError("a batch of query.set was not answered whole")
            }
            first += 1000
        }
    }

    /// Starts a daemon on the damaged `store` and expects exit 1 with a message naming the file and the remedy.
    static func expectRefusal(_ store: Store) throws {
        let socket = DaemonProcess.temporarySocketPath()
        let (status, output) = try DaemonProcess.run(
            arguments: ["serve", "--socket", socket] + PersistenceRestartTests.flags(store))
        #expect(status == .exited(1), "\(output)")
        #expect(output.contains("\(store.file) is damaged or not a SQLite database"), "\(output)")
        #expect(output.contains("--persist-recover"), "\(output)")
        #expect(access(socket, F_OK) != 0)
    }

    @Test("random bytes: exit 1 naming the file and --persist-recover; no socket is left")
    func randomBytes() throws {
        let store = try Store()
        try Self.writeFile(store.file, bytes: (0..<10_000).map { _ in UInt8.random(in: 0...255) })
        try Self.expectRefusal(store)
    }

    @Test("a truncated file: exit 1 naming the file and the remedy")
    func truncatedFile() throws {
        let store = try Self.populatedStore(count: 3000)
        let size = Self.fileSize(store.file)
        #expect(size > 100_000)
        #expect(truncate(store.file, off_t(size / 3)) == 0)
        try Self.expectRefusal(store)
    }

    @Test("a garbage schema page: exit 1 naming the file and the remedy")
    func garbageSchemaPage() throws {
        let store = try Self.populatedStore(count: 10)
        // Page 1 holds the 100-byte file header, then the schema table's b-tree page.
        try Self.writeFile(
            store.file, bytes: (0..<3996).map { _ in UInt8.random(in: 0...255) }, at: 100, truncate: false)
        try Self.expectRefusal(store)
    }

    @Test("--persist-recover moves a damaged file and its -wal/-shm aside, logs it, and starts empty")
    func recoverMovesAside() throws {
        let store = try Store()
        defer { Self.removeMovedFiles(store) }
        let garbage = (0..<10_000).map { _ in UInt8.random(in: 0...255) }
        try Self.writeFile(store.file, bytes: garbage)
        let daemon = try DaemonProcess(flags: PersistenceRestartTests.flags(store, extra: ["--persist-recover"]))
        let client = try daemon.connect()
        #expect(try client.result("queries.list", [:]) == [])
        _ = try client.result("query.set", ["key": ["after"], "data": 1])
        let log = daemon.logTail()
        #expect(log.contains("\(store.file) is damaged or not a SQLite database"), "\(log)")
        #expect(log.contains("moved \(store.file) to \(store.file).corrupt-"), "\(log)")
        #expect(log.contains("aside and starting empty"), "\(log)")
        // SQLite itself discards a -wal that does not belong to a readable database when the
        // failed connection closes; a -wal or -shm still there is moved with the same stamp.
        let moved = Self.files(in: store.path).filter { $0.contains(".corrupt-") }
        let kept = moved.first { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") } ?? ""
        #expect(moved.allSatisfy { $0.hasPrefix(kept) }, "\(moved)")
        let fd = open(store.path + "/" + kept, O_RDONLY)
        var copy = [UInt8](repeating: 0, count: garbage.count)
        #expect(copy.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } == garbage.count)
        close(fd)
        #expect(copy == garbage)
        client.close()
        #expect(try daemon.stop() == .exited(0))
        // The new store works: the write made after the recovery comes back.
        let again = try DaemonProcess(flags: PersistenceRestartTests.flags(store))
        let reader = try again.connect()
        #expect(try reader.result("query.get", ["key": ["after"]]).member("data") == 1)
        reader.close()
        #expect(try again.stop() == .exited(0))
    }

    @Test("--persist-recover on pages damaged past the first rows: the rows read before the damage are dropped too")
    func recoverMidwayDamageStartsEmpty() throws {
        let store = try Self.populatedStore(count: 3000)
        defer { Self.removeMovedFiles(store) }
        // The table's last leaf pages (keys sort by text, the file grows in key order): the restore
        // hydrates rows from the first pages before it meets the garbage.
        let size = Self.fileSize(store.file)
        try Self.writeFile(
            store.file, bytes: (0..<(size / 4)).map { _ in UInt8.random(in: 0...255) }, at: size - size / 4,
            truncate: false)
        let daemon = try DaemonProcess(flags: PersistenceRestartTests.flags(store, extra: ["--persist-recover"]))
        let client = try daemon.connect()
        #expect(try client.result("queries.list", [:]) == [])
        #expect(daemon.logTail().contains("aside and starting empty"), "\(daemon.logTail())")
        client.close()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test("a row written with a dataUpdatedAt in the future is restored as written at the restart")
    func futureRowIsRestoredAsNow() throws {
        let store = try Store()
        let future = clockStart + 86_400_000
        do {
            let daemon = try DaemonProcess(flags: PersistenceRestartTests.flags(store))
            let client = try daemon.connect()
            _ = try client.result(
                "query.set", ["key": ["future"], "data": 1, "updatedAt": .number(JSONNumber(future))])
            _ = try client.result("query.set", ["key": ["past"], "data": 2, "updatedAt": 1_600_000_000_000])
            client.close()
            #expect(try daemon.stop() == .exited(0))
        }
        let daemon = try DaemonProcess(flags: PersistenceRestartTests.flags(store, extra: ["--persist-max-age", "0"]))
        let client = try daemon.connect()
        // Max age 0 keeps only data written at the restart's "now": the future row, clamped to now.
        #expect(
            try client.result("query.get", ["key": ["future"]]) == [
                "data": 1, "dataUpdatedAt": .number(JSONNumber(clockStart)),
            ])
        #expect(try client.result("query.get", ["key": ["past"]]) == nil)
        client.close()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test("restored data is back before the socket accepts: the first request after connect is answered at once")
    func restoreBeforeListening() throws {
        let count = 15_000
        let store = try Self.populatedStore(count: count)
        let daemon = try DaemonProcess(flags: PersistenceRestartTests.flags(store))
        let connected = Clock.now
        let client = try daemon.connect()
        #expect(
            try client.result("query.get", ["key": PersistenceRestartTests.itemKey(count - 1)]).member("data")
                == PersistenceRestartTests.itemData(count - 1))
        let firstReply = Clock.now - connected
        #expect(daemon.logTail().contains("persistence: restored \(count) of \(count) queries"))
        #expect(firstReply < 0.25, "first reply \(firstReply) s after the socket accepted")
        client.close()
        #expect(try daemon.stop() == .exited(0))
    }

    @Test("the cache epoch kept by the store survives a restart with --persist")
    func epochSurvivesRestart() throws {
        let store = try Store()
        func epoch(of daemon: DaemonProcess) throws -> String {
            let log = daemon.logTail()
            let marker = "persistence: cache epoch "
            guard let line = log.split(separator: "\n").first(where: { $0.contains(marker) }),
                let value = line.split(separator: " ").last
            else { throw IntegrationError("no epoch logged\n\(log)") }
            return String(value)
        }
        let first = try DaemonProcess(flags: PersistenceRestartTests.flags(store))
        let kept = try epoch(of: first)
        #expect(kept.count == 16 && kept.allSatisfy(\.isHexDigit))
        #expect(try first.stop() == .exited(0))
        let second = try DaemonProcess(flags: PersistenceRestartTests.flags(store))
        #expect(try epoch(of: second) == kept)
        #expect(try second.stop() == .exited(0))
    }
}

@Suite("Persistence: --persist-sync always")
struct PersistSyncAlwaysTests {
    @Test("every acknowledged query.set survives a kill -9 right after its reply, single and batched")
    func acknowledgedWritesSurviveKillNine() throws {
        let store = try PersistenceRestartTests.StoreDirectory()
        // A ten-minute interval: only the per-turn group commit can have written anything.
        let flags = PersistenceRestartTests.flags(store, flushMs: 600_000, extra: ["--persist-sync", "always"])
        do {
            let daemon = try DaemonProcess(flags: flags)
            let client = try daemon.connect()
            for index in 0..<20 {
                _ = try client.result("query.set", ["key": ["one", .number(JSONNumber(index))], "data": "v"])
            }
            let other = try daemon.connect()
            try PersistenceRecoveryTests.setItems(other, count: 500)
            daemon.kill9()
        }
        let daemon = try DaemonProcess(flags: flags)
        let client = try daemon.connect()
        for index in 0..<20 {
            #expect(try client.result("query.get", ["key": ["one", .number(JSONNumber(index))]]).member("data") == "v")
        }
        #expect(
            try client.result("query.get", ["key": PersistenceRestartTests.itemKey(499)]).member("data")
                == PersistenceRestartTests.itemData(499))
        #expect(daemon.logTail().contains("persistence: restored 520 of 520 queries"))
        client.close()
        #expect(try daemon.stop() == .exited(0))
    }
}
