// `queryd watch KEY`: subscribe from the shell and print the subscription's state, then every
// change, one JSON line each, until interrupted (or `--count` lines were printed).

import ArgumentParser
import QuerydJSON
import QuerydTransport

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Subscribe to a query and print each of its states as a JSON line.",
        discussion: """
            Prints the state from the subscribe reply, then the state of each query.changed.
            Exits 2 when the daemon cannot be reached or closes the connection, 1 when it refuses \
            the subscription. Example: queryd watch '["todos"]' --options '{"staleTime":60000}'
            """)

    @Argument(help: "The query key as a JSON array, e.g. '[\"todos\",1]'.")
    var key: String

    @Option(help: "Query options as a JSON object.")
    var options: String?

    @Option(help: "Exit after printing this many states.")
    var count: Int?

    @Option(
        help: "Socket path (default: $QUERYD_SOCKET, else $XDG_RUNTIME_DIR/queryd.sock, else /tmp/queryd-<uid>.sock).")
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
        do {
            let client = try ShellClient(
                socketPath: SocketPath.resolve(explicit: socket, environment: socketEnvironment()))
            let reply = try client.call("query.subscribe", params: .object(params))
            if let error = reply["error"] {
                ShellOutput.line(error.encodedString, to: 2)
                throw ExitCode(1)
            }
            guard let subscription = reply["result"]?["subscription"], let state = reply["result"]?["state"] else {
                throw ShellTransportError("unexpected subscribe reply: \(reply.encodedString)")
            }
            var printed = 1
            ShellOutput.line(state.encodedString)
            while count.map({ printed < $0 }) ?? true {
                let message = try client.nextMessage()
                guard message["method"]?.stringValue == "query.changed", message["id"] == nil,
                    message["params"]?["subscription"] == subscription, let changed = message["params"]?["state"]
                else { continue }
                ShellOutput.line(changed.encodedString)
                printed += 1
            }
        } catch let error as ShellTransportError {
            ShellOutput.line("queryd watch: \(error)", to: 2)
            throw ExitCode(2)
        }
    }
}
