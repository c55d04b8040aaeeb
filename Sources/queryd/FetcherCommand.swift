// `queryd fetcher KEY -- COMMAND ARGS...`: a fetcher written as a shell command. It registers for
// KEY through the Swift client (QuerydClient) and, for every `fetch` request, runs COMMAND with the
// key in $QUERYD_KEY; stdout is the data. Several fetches run at once (one process each); a withdrawn
// request ($/cancelRequest) cancels its handler, which kills the process. When the daemon goes away
// the client reconnects with backoff and registers again (unless --no-reconnect).

import ArgumentParser
import QuerydClient
import QuerydJSON

struct FetcherCommand: AsyncParsableCommand {
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
        _ = try parseKeyArgument(key)
        if let defaults { _ = try parseOptionsArgument(defaults, name: "--defaults") }
        guard !command.isEmpty else { throw ValidationError("give the command after --, e.g. -- sh -c 'echo 42'") }
    }

    func run() async throws {
        let prefix = try parseKeyArgument(key)
        let queryDefaults = try defaults.map { try parseOptionsArgument($0, name: "--defaults") }
        let client = try await connectedShellClient(socket: socket, noReconnect: noReconnect, command: "fetcher")
        let events = await client.connectionEvents()
        let registration: Registration
        do {
            registration = try await client.registerFetcher(
                prefix, exact: exact, cancellable: cancellable, defaults: queryDefaults,
                serve: { [command, pageResult] request in
                    try await FetchJob.run(command, for: request, pageResult: pageResult)
                })
        } catch {
            throw shellExit(error, command: "fetcher")
        }
        await announce(registration, on: client)
        for await event in events {
            switch event {
            case .disconnected(let error):
                ShellOutput.line("queryd fetcher: \(error)", to: 2)
                if noReconnect { throw ExitCode(2) }
            case .reconnected:
                await announce(registration, on: client)
            case .connected, .reconnecting:
                break
            }
        }
    }

    /// Says on stderr that the fetcher is registered, with the daemon's id for it.
    private func announce(_ registration: Registration, on client: QueryClient) async {
        let id = await client.daemonID(of: registration).map(String.init) ?? "?"
        ShellOutput.line("queryd fetcher: serving \(key) as fetcher \(id)", to: 2)
    }
}
