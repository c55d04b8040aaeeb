// `queryd fetcher KEY -- COMMAND ARGS...`: a fetcher written as a shell command. It registers for
// KEY and, for every `fetch` request, runs COMMAND with the key in $QUERYD_KEY; stdout is the data.
// Several fetches run at once (one process each); a withdrawn request ($/cancelRequest) kills its
// process. A poll(2) loop watches the socket and every child's pipes. When the daemon goes away it
// reconnects with backoff and registers again (unless --no-reconnect).

import ArgumentParser
import Glibc
import QuerydJSON

struct FetcherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetcher",
        abstract: "Serve fetches for a key prefix by running a command.",
        discussion: """
            For each fetch the command runs with QUERYD_KEY (the key as JSON), QUERYD_ATTEMPT, and, \
            when present, QUERYD_PAGE_PARAM (JSON), QUERYD_DIRECTION and QUERYD_META (JSON). Its stdout \
            is the data: parsed as JSON, or else the text as a JSON string. A non-zero exit answers \
            the error {"code":1,"message":<stderr>}. Runs until interrupted. When the daemon goes away \
            (a restart), it reconnects (50 ms to 1 s backoff) and registers again; with --no-reconnect \
            it exits 2 instead. Exits 2 when the daemon cannot be reached at start. \
            Example: queryd fetcher '["time"]' -- sh -c 'date +%s'
            """)

    @Argument(help: "The key prefix to serve, as a JSON array, e.g. '[\"todos\"]'.")
    var key: String

    @Flag(help: "Serve only the query whose key equals KEY.")
    var exact = false

    @Flag(help: "Let the daemon cancel fetches nobody wants any more (the command is killed).")
    var cancellable = false

    @Option(help: "Default query options for matching queries, as a JSON object.")
    var defaults: String?

    @Flag(
        help:
            "stdout is the whole answer object {\"data\",\"nextPageParam\"?,\"previousPageParam\"?} (infinite queries)."
    )
    var pageResult = false

    @Flag(help: "Exit with status 2 when the daemon goes away instead of reconnecting.")
    var noReconnect = false

    @Option(help: socketOptionHelp)
    var socket: String?

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        guard case .array = try parseArgumentJSON(key, name: "KEY") else {
            throw ValidationError("KEY must be a JSON array, e.g. '[\"todos\"]'")
        }
        if let defaults { _ = try parseArgumentJSON(defaults, name: "--defaults") }
        guard !command.isEmpty else { throw ValidationError("give the command after --, e.g. -- sh -c 'echo 42'") }
    }

    func run() throws {
        var params: [String: JSONValue] = ["key": try parseArgumentJSON(key, name: "KEY")]
        if exact { params["exact"] = true }
        if cancellable { params["cancellable"] = true }
        if let defaults { params["defaults"] = try parseArgumentJSON(defaults, name: "--defaults") }
        let path = resolvedSocketPath(explicit: socket)
        var client: ShellClient
        do {
            client = try ShellClient(socketPath: path)
        } catch {
            ShellOutput.line("queryd fetcher: \(error)", to: 2)
            throw ExitCode(2)
        }
        while true {
            do {
                try serve(on: client, params: .object(params))
            } catch let error as ShellTransportError {
                ShellOutput.line("queryd fetcher: \(error)", to: 2)
                if noReconnect { throw ExitCode(2) }
            }
            client = ShellClient.reconnecting(to: path)
        }
    }

    /// Negotiates, registers and serves on one connection until it ends (then throws).
    private func serve(on client: ShellClient, params: JSONValue) throws {
        let reply =
            try client.hello(requests: ["fetch"]).map { ["error": $0] }
            ?? client.call("fetcher.register", params: params)
        if let error = reply["error"] {
            ShellOutput.line(error.encodedString, to: 2)
            throw ExitCode(1)
        }
        let id = reply["result"]?["fetcher"]?.encodedString ?? "?"
        ShellOutput.line("queryd fetcher: serving \(key) as fetcher \(id)", to: 2)
        var server = FetchServer(client: client, command: command, pageResult: pageResult)
        try server.run()
    }
}

/// The serving loop of `queryd fetcher`.
struct FetchServer {
    let client: ShellClient
    let command: [String]
    let pageResult: Bool
    private var jobs: [FetchJob] = []

    init(client: ShellClient, command: [String], pageResult: Bool) {
        self.client = client
        self.command = command
        self.pageResult = pageResult
    }

    /// Serves until the connection ends (then throws, after killing the running commands).
    mutating func run() throws(ShellTransportError) {
        defer { jobs.forEach { $0.cancel() } }
        while true {
            while let message = client.bufferedMessage() { try handle(message) }
            var descriptors = [pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0)]
            for job in jobs {
                for fd in job.openDescriptors { descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            }
            if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
                if errno == EINTR { continue }
                throw ShellTransportError("poll: \(ShellClient.reason(errno))")
            }
            for entry in descriptors.dropFirst() where entry.revents != 0 {
                jobs.first { $0.openDescriptors.contains(entry.fd) }?.drain(entry.fd)
            }
            try finishDrainedJobs()
            if descriptors[0].revents != 0 { try client.readAvailable() }
        }
    }

    private mutating func handle(_ message: JSONValue) throws(ShellTransportError) {
        guard let method = message["method"]?.stringValue else { return }
        guard let id = message["id"] else {
            if method == "$/cancelRequest", let target = message["params"]?["id"] {
                jobs.first { $0.requestID == target }?.cancel()
            }
            client.noteClosing(message)
            return
        }
        guard method == "fetch", let params = message["params"], let key = params["key"] else {
            try client.refuse(message)
            return
        }
        var environment = ["QUERYD_KEY": key.encodedString, "QUERYD_ATTEMPT": params["attempt"]?.encodedString ?? "1"]
        if let pageParam = params["pageParam"] { environment["QUERYD_PAGE_PARAM"] = pageParam.encodedString }
        if let direction = params["direction"]?.stringValue { environment["QUERYD_DIRECTION"] = direction }
        if let meta = params["meta"] { environment["QUERYD_META"] = meta.encodedString }
        do {
            jobs.append(try FetchJob(requestID: id, command: command, environment: environment))
        } catch {
            try client.send(["jsonrpc": "2.0", "id": id, "error": ["code": 1, "message": .string(error.description)]])
        }
    }

    private mutating func finishDrainedJobs() throws(ShellTransportError) {
        let done = jobs.filter(\.isDrained)
        jobs.removeAll { $0.isDrained }
        for job in done {
            let answer = job.finish(pageResult: pageResult)
            if !job.isCancelled { try client.send(answer) }
        }
    }
}
