// What the shell commands (`queryd call`, `watch`, `fetcher`) share: parsing JSON arguments, the
// `--socket` option and its resolution, opening a QuerydClient, exit statuses, and line output.

import ArgumentParser
import Glibc
import QuerydClient
import QuerydJSON
import QuerydRPC

/// Unbuffered writes to stdout and stderr (one whole line per call).
enum ShellOutput {
    /// Writes `text` and a newline to file descriptor `fd` (1 = stdout, 2 = stderr).
    static func line(_ text: String, to fd: Int32 = 1) {
        let bytes = Array(text.utf8) + [0x0A]
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Parses JSON given on the command line; a bad value is a usage error (exit status 64).
func parseArgumentJSON(_ text: String, name: String) throws -> JSONValue {
    do {
        return try JSONParser.parse(text)
    } catch {
        throw ValidationError("\(name) is not valid JSON (\(error)): \(text)")
    }
}

/// Parses query options given on the command line as a JSON object (sent as they are); anything else is
/// a usage error.
func parseOptionsArgument(_ text: String, name: String) throws -> QueryOptions {
    guard case .object(let members) = try parseArgumentJSON(text, name: name) else {
        throw ValidationError("\(name) must be a JSON object, e.g. '{\"staleTime\":60000}'")
    }
    var options = QueryOptions()
    options.additional = members
    return options
}

/// Parses the KEY argument, a JSON array.
func parseKeyArgument(_ text: String) throws -> JSONKey {
    guard case .array(let elements) = try parseArgumentJSON(text, name: "KEY") else {
        throw ValidationError("KEY must be a JSON array, e.g. '[\"todos\"]'")
    }
    return JSONKey(elements)
}

/// The `--socket` option's help, the same in every command.
let socketOptionHelp = ArgumentHelp(
    "Socket path (default: $QUERYD_SOCKET, else $XDG_RUNTIME_DIR/queryd.sock, else /tmp/queryd-<uid>.sock).")

/// The socket path for `--socket explicit`, resolved by `SocketPath`'s rules from this process's environment.
func resolvedSocketPath(explicit: String?) -> String {
    var environment: [String: String] = [:]
    for name in SocketPath.variableNames {
        if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return SocketPath.resolve(explicit: explicit, environment: environment, userID: getuid())
}

/// A client connected to the daemon at `--socket` (reconnecting with 50 ms to 1 s backoff unless
/// `noReconnect`); a daemon that cannot be reached exits with status 2, one that refuses the hello with 1.
func connectedShellClient(socket: String?, noReconnect: Bool, command: String) async throws -> QueryClient {
    let path = resolvedSocketPath(explicit: socket)
    let client = QueryClient(socketPath: path, reconnect: noReconnect ? .disabled : .standard)
    do {
        try await client.connect()
    } catch .server(let refusal) {
        throw shellExit(.server(refusal), command: command)  // `server.hello` refused
    } catch {
        ShellOutput.line("queryd \(command): cannot connect to queryd at \(path) (\(error))", to: 2)
        throw ExitCode(2)
    }
    return client
}

/// Reports a failed call of a shell command and returns its exit: a refusal prints the daemon's error
/// object (exit 1), anything else prints why the daemon could not be talked to (exit 2).
func shellExit(_ error: QueryClientError, command: String) -> ExitCode {
    if case .server(let refusal) = error {
        ShellOutput.line(refusal.jsonValue.encodedString, to: 2)
        return ExitCode(1)
    }
    ShellOutput.line("queryd \(command): \(error)", to: 2)
    return ExitCode(2)
}
