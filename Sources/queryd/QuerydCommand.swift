// The `queryd` command line: `queryd serve` runs the daemon; `queryd openrpc` prints the protocol
// document the daemon serves.

import ArgumentParser

@main
struct QuerydCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queryd",
        abstract: "TanStack Query's cache as a daemon, shared over a Unix socket (JSON-RPC 2.0, one message per line).",
        subcommands: [
            ServeCommand.self, OpenRPCCommand.self, CallCommand.self, WatchCommand.self, FetcherCommand.self,
            DevtoolsCommand.self,
        ],
        defaultSubcommand: ServeCommand.self)
}
