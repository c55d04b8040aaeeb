// The `queryd` command line: `queryd serve` runs the daemon; `queryd openrpc` prints the protocol
// document the daemon serves; `call`, `watch` and `fetcher` are shell clients; `devtools` starts
// the devtools page.
//
// The entry point is synchronous: `serve` runs the libuv loop on the main thread and never starts
// Swift's concurrency runtime (whose asynchronous main also makes valgrind 3.19 crash at start, so
// the callgrind gate could not run). Only the client commands, which are asynchronous, start it:
// they run as a task while the main thread waits for it.

import ArgumentParser
import Dispatch
import Synchronization

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

@main
enum QuerydMain {
    static func main() {
        let command: any ParsableCommand
        do {
            command = try QuerydCommand.parseAsRoot()
        } catch {
            QuerydCommand.exit(withError: error)
        }
        guard let asynchronous = command as? any AsyncParsableCommand else {
            var synchronous = command
            do { try synchronous.run() } catch { QuerydCommand.exit(withError: error) }
            return
        }
        let outcome = AsyncCommandRun(asynchronous)
        outcome.wait()
        if let error = outcome.error { QuerydCommand.exit(withError: error) }
    }
}

/// Runs an asynchronous command as a task and lets the main thread wait for it.
private final class AsyncCommandRun: Sendable {
    /// What the command threw, set once by the task before it signals `done` (the mutex is never
    /// contended: it only makes the error transferable to the main thread).
    private let failure = Mutex<(any Error)?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ command: sending any AsyncParsableCommand) {
        Task { [self] in
            var command = command
            do {
                try await command.run()
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
    }

    /// Blocks until the command finished.
    func wait() { done.wait() }

    /// What the command threw, once it finished.
    var error: (any Error)? { failure.withLock { $0 } }
}
