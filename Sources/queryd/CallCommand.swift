// `queryd call METHOD [PARAMS]`: one request from the shell, through the Swift client (QuerydClient).
// The result is printed as one JSON line; an error reply is printed to stderr (exit 1); no daemon or a
// lost connection exits 2.
//
// Start-up cost of using the client here, measured (release, `queryd call server.ping` 200 times in a
// loop, shared 2-core machine): 8.3 ms best / 8.7 ms median with the former blocking client, 10.8 ms /
// 12.2 ms on QueryClient (its `server.hello` round trip and the async runtime's threads). Kept: one
// client for framing, negotiation and socket rules is worth ~3 ms per call.

import ArgumentParser
import QuerydClient
import QuerydJSON

struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Send one request and print its result as a JSON line.",
        discussion: """
            Exit status: 0 with the result on stdout; 1 when the daemon answers with an error \
            (the error object goes to stderr); 2 when the daemon cannot be reached.
            Example: queryd call query.get '{"key":["todos"]}'
            """)

    @Argument(help: "The method, e.g. query.get or queries.invalidate.")
    var method: String

    @Argument(help: "The params as a JSON object (default: none).")
    var params: String?

    @Option(help: socketOptionHelp)
    var socket: String?

    func validate() throws {
        if let params { _ = try parseArgumentJSON(params, name: "PARAMS") }
    }

    func run() async throws {
        let parsed = try params.map { try parseArgumentJSON($0, name: "PARAMS") }
        let client = try await connectedShellClient(socket: socket, noReconnect: true, command: "call")
        do {
            ShellOutput.line(try await client.call(method, parsed ?? [:]).encodedString)
        } catch {
            throw shellExit(error, command: "call")
        }
    }
}
