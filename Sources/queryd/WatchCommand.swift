// `queryd watch KEY`: subscribe from the shell and print the subscription's state, then every
// change, one JSON line each, until interrupted (or `--count` lines were printed). `queryd watch
// --all` watches the whole cache instead (`cache.watch`): the snapshot, then one line per event.
// It runs on the Swift client (QuerydClient), which reconnects with backoff when the daemon goes
// away and subscribes (or watches) again (unless --no-reconnect).

import ArgumentParser
import QuerydClient
import QuerydJSON

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Subscribe to a query (or watch the whole cache) and print what changes as JSON lines.",
        discussion: """
            Prints the state from the subscribe reply, then the state of each query.changed. When \
            the daemon goes away (a restart), it reconnects (50 ms to 1 s backoff), subscribes again \
            and prints the new subscribe state; with --no-reconnect it exits 2 instead. Exits 2 when \
            the daemon cannot be reached at start, 1 when it refuses the subscription. \
            Example: queryd watch '["todos"]' --options '{"staleTime":60000}'. With --all (no KEY): \
            prints the cache.watch snapshot, then each event of the whole cache (queries added, \
            changed and removed, fetchers and mutators, fetches and mutations started and settled) \
            as a line of its own; --key-prefix narrows the queries, --data shows their data.
            """)

    @Argument(help: "The query key as a JSON array, e.g. '[\"todos\",1]'.")
    var key: String?

    @Flag(help: "Watch the whole cache (cache.watch) instead of one query.")
    var all = false

    @Option(help: "With --all: only queries under this key prefix (a JSON array).")
    var keyPrefix: String?

    @Flag(help: "With --all: query states carry their data.")
    var data = false

    @Option(help: "Query options as a JSON object.")
    var options: String?

    @Option(help: "Exit after printing this many states.")
    var count: Int?

    @Flag(help: "Exit with status 2 when the daemon goes away instead of reconnecting.")
    var noReconnect = false

    @Option(help: socketOptionHelp)
    var socket: String?

    func validate() throws {
        switch (key, all) {
        case (let key?, false): _ = try parseKeyArgument(key)
        case (nil, true): if let keyPrefix { _ = try parseKeyArgument(keyPrefix) }
        default: throw ValidationError("give either a KEY or --all")
        }
        if !all, keyPrefix != nil || data { throw ValidationError("--key-prefix and --data go with --all") }
        if all, options != nil { throw ValidationError("--options goes with a KEY") }
        if let options { _ = try parseOptionsArgument(options, name: "--options") }
        if let count, count < 1 { throw ValidationError("--count must be positive") }
    }

    func run() async throws {
        let client = try await connectedShellClient(socket: socket, noReconnect: noReconnect, command: "watch")
        guard let keyText = key else {
            try await watchAll(client)
            return
        }
        let queryOptions = try options.map { try parseOptionsArgument($0, name: "--options") } ?? QueryOptions()
        let key = try parseKeyArgument(keyText)
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

    /// `--all`: the snapshot line, then a line per event, until interrupted (or `--count` lines).
    private func watchAll(_ client: QueryClient) async throws {
        let filter: JSONValue? = try keyPrefix.map { .object(["key": .array(try parseKeyArgument($0).elements)]) }
        let watch: CacheWatch
        do {
            watch = try await client.watchCache(filter: filter, data: data)
        } catch {
            throw shellExit(error, command: "watch")
        }
        var printed = 0
        func print(_ value: JSONValue) -> Bool {
            ShellOutput.line(value.encodedString)
            printed += 1
            return count.map { printed >= $0 } ?? false
        }
        for await event in watch.events {
            switch event {
            case .snapshot(let snapshot):
                if print(snapshot) { return }
            case .changed(let events):
                for event in events where print(event) { return }
            case .connectionLost(let error):
                ShellOutput.line("queryd watch: \(error)", to: 2)
                if noReconnect { throw ExitCode(2) }
            }
        }
    }
}
