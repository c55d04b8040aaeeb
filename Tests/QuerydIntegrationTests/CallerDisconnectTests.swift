// A caller that disconnects cancels its wait (issue 16 §2): closing the connection of a waiting
// `query.fetch`, `query.ensure` or `query.refetch` counts as `$/cancelRequest`, so a cancellable
// fetcher's fetch nobody else wants is withdrawn, and `queryd fetcher --cancellable` stops the
// whole command (a shell's children too), not only the process it started.

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Caller disconnect")
struct CallerDisconnectTests {
    @Test(
        "a waiting caller that closes its connection withdraws a cancellable fetch, as $/cancelRequest",
        arguments: ["query.fetch", "query.ensure", "query.refetch"])
    func closingCallerCancelsTheFetch(method: String) throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["gone"], cancellable: true)
            // `query.refetch {key}` refetches a cached query: it reverts to that data.
            var before = queryState(["gone"])
            if method == "query.refetch" {
                _ = try fetcher.result("query.set", ["key": ["gone"], "data": 0])
                before = successState(["gone"], data: 0)
            }
            let caller = try daemon.connect()
            _ = try caller.sendRequest(method, ["key": ["gone"]])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["gone"])
            caller.close()
            expectJSON(
                try fetcher.nextNotification(method: "$/cancelRequest"),
                ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": request]])
            try fetcher.waitForStats("pendingRequests", toBe: 0)
            expectJSON(try fetcher.result("query.state", ["key": ["gone"]]), before)
            // A late answer is ignored.
            try fetcher.respond(id: request, result: ["data": 1])
            expectJSON(try fetcher.result("query.state", ["key": ["gone"]]), before)
        }
    }

    @Test("a closing caller's fetch goes on while another caller still waits for it")
    func anotherCallerKeepsTheFetch() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["kept"], cancellable: true)
            let leaver = try daemon.connect()
            let stayer = try daemon.connect()
            _ = try leaver.sendRequest("query.fetch", ["key": ["kept"]])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["kept"])
            let stayID = try stayer.sendRequest("query.fetch", ["key": ["kept"]])
            try stayer.waitForStats("pendingRequests", toBe: 2)
            leaver.close()
            try stayer.waitForStats("connections", toBe: 2)
            try fetcher.expectSilence()
            try fetcher.respond(id: request, result: ["data": "kept"])
            expectJSON(
                try stayer.awaitResponse(id: stayID),
                ["jsonrpc": "2.0", "id": stayID, "result": successState(["kept"], data: "kept")])
        }
    }

    @Test("queryd fetcher --cancellable kills the whole command of a fetch whose caller disconnects")
    func shellFetcherKillsTheCommandsChildren() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            let pidFile = "/tmp/qd-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            defer { unlink(pidFile) }
            // The command's own child does the work, as in `sh -c 'sleep 30; echo 1'`.
            let fetcher = try ShellCommand.start(
                [
                    "fetcher", #"["slow"]"#, "--cancellable", "--", "sh", "-c",
                    "sleep 30 & echo $! > \(pidFile); wait; echo 1",
                ], daemon)
            defer { fetcher.terminate() }
            try client.waitForStats("fetchers", toBe: 1)
            let caller = try daemon.connect()
            _ = try caller.sendRequest("query.fetch", ["key": ["slow"]])
            let child = try ShellCommand.eventually("the command's child to start") {
                Int32(TestFile.text(pidFile).filter(\.isNumber))
            }
            caller.close()
            _ = try ShellCommand.eventually("the command's child to be killed") {
                CallerDisconnectTests.isRunning(child) ? nil : true
            }
            expectJSON(try client.result("query.state", ["key": ["slow"]]), queryState(["slow"]))
        }
    }

    /// Whether `pid` is a live process (a zombie waiting for its reaper is not).
    static func isRunning(_ pid: pid_t) -> Bool {
        let stat = TestFile.text("/proc/\(pid)/stat")
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingPrefix(" ").first != "Z"
    }
}
