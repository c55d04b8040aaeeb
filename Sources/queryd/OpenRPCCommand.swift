// `queryd openrpc`: prints the OpenRPC document of this daemon's protocol, as `rpc.discover` serves it.

import ArgumentParser
import QuerydServer

struct OpenRPCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openrpc", abstract: "Print the OpenRPC document (every method, gated ones included).")

    func run() {
        // The text is protocol/openrpc.json byte for byte, final newline included.
        print(ProtocolDocument.fullText, terminator: "")
    }
}
