// `queryd fetcher` and `queryd watch` across a daemon restart: they reconnect, negotiate, register and
// subscribe again; with --no-reconnect they exit 2 as before.

import Glibc
import QuerydJSON
import Testing

@Suite("Shell commands across a daemon restart")
struct ShellReconnectTests {
    @Test("fetcher registers again and watch subscribes again after the daemon restarts")
    func fetcherAndWatchSurviveARestart() throws {
        let first = try DaemonProcess()
        try withExtendedLifetime(first) {
            let fetcher = try ShellCommand.start(["fetcher", #"["r"]"#, "--", "sh", "-c", "echo 42"], first)
            let watch = try ShellCommand.start(["watch", #"["r"]"#], first)
            defer {
                fetcher.terminate()
                watch.terminate()
            }
            _ = try ShellCommand.eventually("the first fetched state") { dataLines(watch).count == 1 ? true : nil }
            try first.stop()

            let second = try DaemonProcess(socketPath: first.socketPath)
            let client = try second.connect()
            try client.waitForStats("fetchers", toBe: 1)
            try client.waitForStats("subscriptions", toBe: 1)
            // The re-subscription loaded the query from the re-registered fetcher; the watch printed it.
            _ = try ShellCommand.eventually("the state after the restart") { dataLines(watch).count == 2 ? true : nil }
            let state = try client.result("query.state", ["key": ["r"]])
            #expect(state.member("data") == 42 && state.member("dataUpdateCount") == 1, "\(state.encodedString)")
            #expect(
                fetcher.stderr.split(separator: "\n").filter { $0.contains("serving [\"r\"]") }.count == 2, "\(fetcher)"
            )
            #expect(fetcher.stderr.contains("the daemon closed the connection"), "\(fetcher)")
            #expect(watch.status == nil && fetcher.status == nil)
            client.close()
            try second.stop()
        }
    }

    @Test("with --no-reconnect, fetcher and watch exit 2 when the daemon goes away")
    func noReconnectExits() throws {
        let daemon = try DaemonProcess()
        let fetcher = try ShellCommand.start(["fetcher", #"["n"]"#, "--no-reconnect", "--", "true"], daemon)
        let watch = try ShellCommand.start(["watch", #"["n"]"#, "--no-reconnect"], daemon)
        let client = try daemon.connect()
        try client.waitForStats("fetchers", toBe: 1)
        try client.waitForStats("subscriptions", toBe: 1)
        client.close()
        try daemon.stop()
        #expect(fetcher.wait(seconds: 5) == .exited(2), "\(fetcher)")
        #expect(watch.wait(seconds: 5) == .exited(2), "\(watch)")
    }

    /// The watch's output lines whose state has data (each full fetch prints one).
    private func dataLines(_ watch: ShellCommand) -> [JSONValue] {
        watch.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }.filter {
            $0.member("data") == 42 && $0.member("fetchStatus") == "idle"
        }
    }
}
