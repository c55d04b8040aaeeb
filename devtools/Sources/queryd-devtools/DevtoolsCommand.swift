// `queryd-devtools [--socket PATH] [--listen HOST:PORT]` (started by `queryd devtools`): serves the devtools page
// over the daemon's socket and prints its URL, token included.

import ArgumentParser
import Foundation
import QuerydDevtools

@main
struct DevtoolsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queryd-devtools",
        abstract: "A web page over a running queryd: its queries, fetchers, graphs and actions, and /metrics.")

    @Option(help: "The daemon's socket (default: the one `queryd serve` uses).")
    var socket: String?

    @Option(help: "Where to serve the page, HOST:PORT (port 0: any free port).")
    var listen: String = ListenAddress.standard.description

    @Option(help: "How often the daemon's counters (server.stats) are read for the page, in milliseconds.")
    var intervalMs: Int = 250

    func validate() throws {
        guard ListenAddress(listen) != nil else { throw ValidationError("--listen wants HOST:PORT, not \(listen)") }
        guard intervalMs > 0 else { throw ValidationError("--interval-ms must be positive") }
    }

    func run() async throws {
        let address = ListenAddress(listen)!
        if !address.isLoopback {
            let warning = "queryd devtools: warning: \(address) is reachable from other machines; HTTP is unencrypted\n"
            FileHandle.standardError.write(Data(warning.utf8))
        }
        let link = DaemonLink(
            socketPath: SocketPath.resolve(explicit: socket, environment: ProcessInfo.processInfo.environment))
        let hub = PageHub()
        let server = DevtoolsServer(
            address: address, token: AccessToken(), link: link, hub: hub, files: try PageFiles.bundled())
        let follower = Task { await CacheFollower(link: link, hub: hub, interval: .milliseconds(intervalMs)).run() }
        defer { follower.cancel() }
        try await server.run { url in
            // Written at once, unbuffered: whoever started the devtools reads the URL (and token) from here.
            FileHandle.standardOutput.write(Data("queryd devtools: \(url)  (daemon socket \(link.socketPath))\n".utf8))
        }
    }
}
