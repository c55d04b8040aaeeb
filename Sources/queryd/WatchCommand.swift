// `queryd watch KEY`: subscribe from the shell and print the subscription's state, then every
// change, one JSON line each, until interrupted (or `--count` lines were printed). When the daemon
// goes away it reconnects with backoff and subscribes again (unless --no-reconnect).

import ArgumentParser
import QuerydJSON

struct WatchCommand: ParsableCommand {
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
        guard case .array = try parseArgumentJSON(key, name: "KEY") else {
            throw ValidationError("KEY must be a JSON array, e.g. '[\"todos\"]'")
        }
        if let options { _ = try parseArgumentJSON(options, name: "--options") }
        if let count, count < 1 { throw ValidationError("--count must be positive") }
    }

    func run() throws {
        var params: [String: JSONValue] = ["key": try parseArgumentJSON(key, name: "KEY")]
        if let options { params["options"] = try parseArgumentJSON(options, name: "--options") }
        let path = resolvedSocketPath(explicit: socket)
        var client: ShellClient
        do {
            client = try ShellClient(socketPath: path)
        } catch {
            ShellOutput.line("queryd watch: \(error)", to: 2)
            throw ExitCode(2)
        }
        var printed = 0
        while true {
            do {
                try watch(on: client, params: .object(params), printed: &printed)
                return
            } catch let error as ShellTransportError {
                ShellOutput.line("queryd watch: \(error)", to: 2)
                if noReconnect { throw ExitCode(2) }
            }
            client = ShellClient.reconnecting(to: path)
        }
    }

    /// Negotiates, subscribes and prints states on one connection until `--count` states were printed in
    /// all (then returns) or the connection ends (then throws).
    private func watch(on client: ShellClient, params: JSONValue, printed: inout Int) throws {
        let reply =
            try client.hello(requests: []).map { ["error": $0] } ?? client.call("query.subscribe", params: params)
        if let error = reply["error"] {
            ShellOutput.line(error.encodedString, to: 2)
            throw ExitCode(1)
        }
        guard let subscription = reply["result"]?["subscription"], let state = reply["result"]?["state"] else {
            throw ShellTransportError("unexpected subscribe reply: \(reply.encodedString)")
        }
        ShellOutput.line(state.encodedString)
        printed += 1
        while count.map({ printed < $0 }) ?? true {
            let message = try client.nextMessage()
            if message["id"] != nil {
                try client.refuse(message)
                continue
            }
            client.noteClosing(message)
            guard message["method"]?.stringValue == "query.changed", message["params"]?["subscription"] == subscription,
                let changed = message["params"]?["state"]
            else { continue }
            ShellOutput.line(changed.encodedString)
            printed += 1
        }
    }
}
