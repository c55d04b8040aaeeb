// `queryd watch KEY`: subscribe from the shell and print the subscription's state, then every
// change, one JSON line each, until interrupted (or `--count` lines were printed). It runs on the
// Swift client (QuerydClient), which reconnects with backoff when the daemon goes away and
// subscribes again (unless --no-reconnect).

import ArgumentParser
import QuerydClient
import QuerydJSON

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Subscribe to a query and print each of its states as a JSON line.",
        discussion: """
            Prints the state from the subscribe reply, then the state of each query.changed. When \
            the daemon goes away (a restart), it reconnects (50 ms to 1 s backoff), subscribes again \
            and prints the new subscribe state; with --no-reconnect it exits 2 instead. Exits 2 when \
            the daemon cannot be reached at start, 1 when it refuses the subscription. \
            Example: queryd watch '["todos"]' --options '{"staleTime":60000}'
            """)

    @Argument(help: "The query key as a JSON array, e.g. '[\"todos\",1]'.")
    var key: String

    @Option(help: "Query options as a JSON object.")
    var options: String?

    @Option(help: "Exit after printing this many states.")
    var count: Int?

    @Flag(help: "Exit with status 2 when the daemon goes away instead of reconnecting.")
    var noReconnect = false

    @Option(help: socketOptionHelp)
    var socket: String?

    func validate() throws {
        _ = try parseKeyArgument(key)
        if let options { _ = try parseOptionsArgument(options, name: "--options") }
        if let count, count < 1 { throw ValidationError("--count must be positive") }
    }

    func run() async throws {
        let queryOptions = try options.map { try parseOptionsArgument($0, name: "--options") } ?? QueryOptions()
        let key = try parseKeyArgument(key)
        let client = try await connectedShellClient(socket: socket, noReconnect: noReconnect, command: "watch")
        let subscription: QuerySubscription
        do {
            subscription = try await client.subscribe(key, options: queryOptions)
        } catch {
            throw shellExit(error, command: "watch")
        }
        // The stream starts with the subscribe reply's state, and after a reconnect the new subscribe state.
        var printed = 0
        for await event in subscription.events {
            switch event {
            case .state(let state):
                ShellOutput.line(state.raw.encodedString)
                printed += 1
                if let count, printed >= count { return }
            case .connectionLost(let error):
                ShellOutput.line("queryd watch: \(error)", to: 2)
                if noReconnect { throw ExitCode(2) }
            }
        }
    }
}
