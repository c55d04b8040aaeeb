// `queryd call METHOD [PARAMS]`: one request from the shell. The result is printed as one JSON
// line; an error reply is printed to stderr (exit 1); no daemon or a lost connection exits 2.

import ArgumentParser
import QuerydJSON

struct CallCommand: ParsableCommand {
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

    func run() throws {
        let parsed = try params.map { try parseArgumentJSON($0, name: "PARAMS") }
        let reply: JSONValue
        do {
            let client = try ShellClient(
                socketPath: resolvedSocketPath(explicit: socket))
            reply = try client.call(method, params: parsed)
        } catch {
            ShellOutput.line("queryd call: \(error)", to: 2)
            throw ExitCode(2)
        }
        if let error = reply["error"] {
            ShellOutput.line(error.encodedString, to: 2)
            throw ExitCode(1)
        }
        ShellOutput.line((reply["result"] ?? .null).encodedString)
    }
}
