// `queryd devtools [--socket PATH] [--listen HOST:PORT]`: runs the devtools, a separate program (queryd-devtools,
// built from the devtools/ package) found beside this executable or on PATH, with the arguments passed through.

import ArgumentParser
import Glibc

struct DevtoolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devtools",
        abstract: "Serve a web page over the daemon: its queries, fetchers, graphs and actions, and /metrics.",
        discussion: """
            Runs queryd-devtools (beside this executable, else on PATH) with these arguments: --socket PATH \
            (the daemon's socket, found as `queryd serve` finds it), --listen HOST:PORT (default 127.0.0.1:7317; \
            port 0 for any free port). It prints the page's URL, with the access token as ?token=…
            """)

    @Argument(parsing: .captureForPassthrough, help: "Arguments for queryd-devtools.")
    var arguments: [String] = []

    func run() throws {
        guard let program = Self.locate() else {
            ShellOutput.line(
                "queryd devtools: queryd-devtools was found neither beside queryd nor on PATH; build it with "
                    + "`swift build --package-path devtools` and put devtools/.build/debug/queryd-devtools beside "
                    + "queryd or on PATH", to: 2)
            throw ExitCode(2)
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        ShellOutput.line("queryd devtools: cannot run \(program): \(String(cString: strerror(errno)))", to: 2)
        throw ExitCode(2)
    }

    /// `queryd-devtools` in this executable's directory, else the first executable one on PATH.
    static func locate() -> String? {
        var directories: [String] = []
        if let executable = realpath("/proc/self/exe", nil) {
            directories.append(String(cString: executable).split(separator: "/").dropLast().map { "/" + $0 }.joined())
            free(executable)
        }
        if let path = getenv("PATH") { directories += String(cString: path).split(separator: ":").map(String.init) }
        return directories.map { $0 + "/queryd-devtools" }.first { access($0, X_OK) == 0 }
    }
}
