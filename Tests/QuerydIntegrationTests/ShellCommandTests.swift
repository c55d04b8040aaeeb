// The shell subcommands against the real daemon: `queryd call` (result, error reply, no daemon),
// `queryd fetcher KEY -- COMMAND` (JSON and text stdout, failing commands, environment) and
// `queryd watch KEY` (the subscribe state, then each change).

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Shell commands")
struct ShellCommandTests {
    @Test("call prints the result as one JSON line and exits 0")
    func callPrintsResult() throws {
        try withDaemon(["--manual-clock"]) { daemon, _ in
            let set = try ShellCommand.run(["call", "query.set", #"{"key":["a"],"data":{"n":1}}"#], daemon)
            #expect(set.status == .exited(0) && set.stderr == "", "\(set)")
            expectJSON(try JSONParser.parse(set.stdout), successState(["a"], data: ["n": 1]))
            #expect(set.stdout.hasSuffix("}\n") && set.stdout.filter { $0 == "\n" }.count == 1)
            let get = try ShellCommand.run(["call", "query.get", #"{"key":["a"]}"#], daemon)
            #expect(get.status == .exited(0))
            #expect(get.stdout == #"{"data":{"n":1},"dataUpdatedAt":1700000000000}"# + "\n")
            let ping = try ShellCommand.run(["call", "server.ping"], daemon)
            #expect(ping.status == .exited(0) && ping.stdout == "{}\n")
        }
    }

    @Test("call prints an error reply to stderr and exits 1")
    func callPrintsError() throws {
        try withDaemon(["--manual-clock"]) { daemon, _ in
            let run = try ShellCommand.run(["call", "query.unsubscribe", #"{"subscription":99}"#], daemon)
            #expect(run.status == .exited(1) && run.stdout == "", "\(run)")
            #expect(
                run.stderr == #"{"code":-32005,"data":{"subscription":99},"message":"Unknown subscription"}"# + "\n")
        }
    }

    @Test("call exits 2 when no daemon listens, 64 for params that are not JSON")
    func callTransportAndUsageFailures() throws {
        let missing = "/tmp/qd-none-\(getpid()).sock"
        let run = try ShellCommand.run(["call", "server.ping", "--socket", missing])
        #expect(run.status == .exited(2), "\(run)")
        #expect(run.stderr.hasPrefix("queryd call: cannot connect to queryd at \(missing)"), "\(run)")
        let usage = try ShellCommand.run(["call", "server.ping", "{not json", "--socket", missing])
        #expect(usage.status == .exited(64), "\(usage)")
    }

    @Test("fetcher runs the command per fetch: stdout JSON is the data, text becomes a string")
    func fetcherServesWithCommand() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            let script = #"printf '{"key":%s,"attempt":%s}' "$QUERYD_KEY" "$QUERYD_ATTEMPT""#
            let json = try ShellCommand.start(["fetcher", #"["sh"]"#, "--", "sh", "-c", script], daemon)
            let text = try ShellCommand.start(["fetcher", #"["text"]"#, "--", "sh", "-c", "echo hello world"], daemon)
            try client.waitForStats("fetchers", toBe: 2)
            let state = try client.result("query.fetch", ["key": ["sh", 1]])
            expectJSON(state, successState(["sh", 1], data: ["key": ["sh", 1], "attempt": 1]))
            let greeting = try client.result("query.fetch", ["key": ["text"]])
            expectJSON(greeting, successState(["text"], data: "hello world"))
            json.terminate()
            text.terminate()
            #expect(json.stderr.hasPrefix(#"queryd fetcher: serving ["sh"] as fetcher "#), "\(json)")
        }
    }

    @Test("fetcher answers a failing command with code 1 and its stderr; dedupes one run for two callers")
    func fetcherFailureAndDedupe() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            let failing = try ShellCommand.start(
                ["fetcher", #"["bad"]"#, "--", "sh", "-c", "echo oops >&2; exit 3"], daemon)
            let base = "/tmp/qd-once-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            defer { unlink(base + ".count"); unlink(base + ".gate") }
            // The command waits for the gate file, so both callers are waiting before it answers.
            let script = "echo run >> \(base).count; while [ ! -e \(base).gate ]; do sleep 0.01; done; echo 7"
            let counting = try ShellCommand.start(["fetcher", #"["once"]"#, "--", "sh", "-c", script], daemon)
            try client.waitForStats("fetchers", toBe: 2)
            let reply = try client.call("query.fetch", ["key": ["bad"]])
            expectJSON(
                reply,
                [
                    "jsonrpc": "2.0", "id": "$number",
                    "error": ["code": -32001, "message": "Fetch failed", "data": ["code": 1, "message": "oops"]],
                ])
            let other = try daemon.connect()
            let first = try client.sendRequest("query.fetch", ["key": ["once"]])
            let second = try other.sendRequest("query.fetch", ["key": ["once"]])
            try daemon.connect().waitForStats("pendingRequests", toBe: 2)
            close(open(base + ".gate", O_WRONLY | O_CREAT, 0o600))
            expectJSON(try client.awaitResponse(id: first).member("result") ?? nil, successState(["once"], data: 7))
            expectJSON(try other.awaitResponse(id: second).member("result") ?? nil, successState(["once"], data: 7))
            #expect(TestFile.text(base + ".count") == "run\n")
            failing.terminate()
            counting.terminate()
        }
    }

    @Test("fetcher kills the command of a fetch the daemon withdraws ($/cancelRequest)")
    func fetcherCancelKillsCommand() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            let pidFile = "/tmp/qd-slow-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            defer { unlink(pidFile) }
            let slow = try ShellCommand.start(
                ["fetcher", #"["slow"]"#, "--cancellable", "--", "sh", "-c", "echo $$ > \(pidFile); exec sleep 30"],
                daemon)
            try client.waitForStats("fetchers", toBe: 1)
            _ = try client.result("query.prefetch", ["key": ["slow"]])
            let pid = try ShellCommand.eventually("the command to start") {
                Int32(TestFile.text(pidFile).filter(\.isNumber))
            }
            _ = try client.result("query.cancel", ["key": ["slow"]])
            _ = try ShellCommand.eventually("the command to be killed") { kill(pid, 0) != 0 ? true : nil }
            expectJSON(try client.result("query.state", ["key": ["slow"]]), queryState(["slow"]))
            slow.terminate()
        }
    }

    @Test("fetcher --page-result serves infinite pages with QUERYD_PAGE_PARAM and QUERYD_DIRECTION")
    func fetcherServesPages() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            let script =
                #"printf '{"data":"%s %s","nextPageParam":%s}' "$QUERYD_PAGE_PARAM" "$QUERYD_DIRECTION" $((QUERYD_PAGE_PARAM + 1))"#
            let pages = try ShellCommand.start(
                ["fetcher", #"["pages"]"#, "--page-result", "--", "sh", "-c", script], daemon)
            try client.waitForStats("fetchers", toBe: 1)
            let first = try client.result(
                "query.fetch", ["key": ["pages"], "options": ["infinite": ["initialPageParam": 0]]])
            #expect(first.member("data") == ["pages": ["0 forward"], "pageParams": [0]], "\(first.encodedString)")
            let second = try client.result("query.fetchNextPage", ["key": ["pages"]])
            #expect(
                second.member("data") == ["pages": ["0 forward", "1 forward"], "pageParams": [0, 1]],
                "\(second.encodedString)")
            pages.terminate()
        }
    }

    @Test("watch prints the subscribe state, then each change, one JSON line each")
    func watchPrintsStates() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            let watch = try ShellCommand.start(["watch", #"["w"]"#, "--count", "2"], daemon)
            try client.waitForStats("subscriptions", toBe: 1)
            _ = try client.result("query.set", ["key": ["w"], "data": 5])
            #expect(watch.wait(seconds: 5) == .exited(0), "\(watch.stderr)")
            let lines = watch.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
            #expect(lines.count == 2 && watch.stdout.hasSuffix("\n"), "\(watch.stdout)")
            guard lines.count == 2 else { return }
            expectJSON(lines[0], queryState(["w"], fetchStatus: "paused"))
            // No fetcher serves ["w"]: its fetch stays paused while query.set writes the data.
            expectJSON(
                lines[1],
                queryState(
                    ["w"], status: "success", fetchStatus: "paused", data: 5, dataUpdatedAt: clockStart,
                    dataUpdateCount: 1))
        }
    }

    @Test("watch --all prints the cache.watch snapshot, then one line per event")
    func watchAllPrintsEvents() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            _ = try client.result("query.set", ["key": ["before"], "data": 1])
            let watch = try ShellCommand.start(["watch", "--all", "--data", "--count", "2"], daemon)
            // The watch starts at some point: write until it has printed its two lines.
            var value = 0
            while watch.wait(seconds: 0.1) == nil, value < 50 {
                value += 1
                _ = try client.result("query.set", ["key": ["w"], "data": .number(JSONNumber(value))])
            }
            #expect(watch.wait(seconds: 5) == .exited(0), "\(watch.stderr)")
            let lines = watch.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
            #expect(lines.count == 2, "\(watch.stdout)")
            guard lines.count == 2 else { return }
            #expect(lines[0].member("watch") != nil)
            #expect(lines[0].member("queries")?.asArray?.first?.member("key") == ["before"])
            #expect(["query.added", "query.changed"].contains(lines[1].member("type")?.asString ?? ""))
            #expect(lines[1].member("state")?.member("key") == ["w"])
            #expect(lines[1].member("state")?.member("data") != nil, "--data shows the data")
        }
    }

    @Test("watch refuses both a KEY and --all, and neither")
    func watchNeedsOneOfKeyOrAll() throws {
        try withDaemon([]) { daemon, _ in
            let both = try ShellCommand.start(["watch", #"["w"]"#, "--all"], daemon)
            #expect(both.wait(seconds: 5) == .exited(64), "\(both.stderr)")
            let neither = try ShellCommand.start(["watch"], daemon)
            #expect(neither.wait(seconds: 5) == .exited(64), "\(neither.stderr)")
        }
    }
}

/// One run of the `queryd` binary with stdout and stderr captured in separate files.
final class ShellCommand: CustomStringConvertible {
    private let pid: pid_t
    private let outputPath: String
    private let errorPath: String
    private var exitStatus: ExitStatus?

    private init(arguments: [String]) throws {
        let base = DaemonProcess.temporarySocketPath().replacingSuffix(".sock", with: "")
        outputPath = base + ".out"
        errorPath = base + ".err"
        pid = try ChildProcess.spawn([QuerydBinary.path] + arguments, output: outputPath, errors: errorPath)
    }

    deinit {
        terminate()
        unlink(outputPath)
        unlink(errorPath)
    }

    /// Starts `queryd <subcommand> --socket <daemon's socket> <arguments...>` in the background (the
    /// option goes first: `fetcher` takes everything after `--` as its command).
    static func start(_ arguments: [String], _ daemon: DaemonProcess) throws -> ShellCommand {
        try ShellCommand(arguments: withSocket(arguments, daemon))
    }

    /// Runs `queryd <arguments>` (with the daemon's socket when given) to completion, at most 10 s.
    static func run(_ arguments: [String], _ daemon: DaemonProcess? = nil) throws -> ShellCommand {
        let command = try ShellCommand(arguments: daemon.map { withSocket(arguments, $0) } ?? arguments)
        guard command.wait(seconds: 10) != nil else {
            throw IntegrationError("queryd \(arguments) did not exit within 10 s")
        }
        return command
    }

    private static func withSocket(_ arguments: [String], _ daemon: DaemonProcess) -> [String] {
        [arguments[0], "--socket", daemon.socketPath] + arguments.dropFirst()
    }

    /// Waits for the exit (polling every 10 ms); nil when still running after `seconds`.
    @discardableResult
    func wait(seconds: Double) -> ExitStatus? {
        let deadline = Clock.now + seconds
        while exitStatus == nil {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                exitStatus = ExitStatus(waitStatus: status)
            } else if Clock.now >= deadline {
                return nil
            } else {
                usleep(10_000)
            }
        }
        return exitStatus
    }

    /// How it ended (nil while running).
    var status: ExitStatus? { exitStatus }

    /// Stops a running command (SIGTERM) and reaps it.
    func terminate() {
        guard exitStatus == nil else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        exitStatus = ExitStatus(waitStatus: status)
    }

    /// Everything written to stdout so far.
    var stdout: String { TestFile.text(outputPath) }
    /// Everything written to stderr so far.
    var stderr: String { TestFile.text(errorPath) }

    var description: String {
        "status \(exitStatus.map(\.description) ?? "running"); stdout: \(stdout); stderr: \(stderr)"
    }

    /// Polls `probe` every 10 ms (at most 5 s) until it returns a value.
    static func eventually<T>(_ what: String, _ probe: () -> T?) throws -> T {
        let deadline = Clock.now + 5
        while Clock.now < deadline {
            if let value = probe() { return value }
            usleep(10_000)
        }
        throw IntegrationError("timed out after 5 s waiting for \(what)")
    }

}
