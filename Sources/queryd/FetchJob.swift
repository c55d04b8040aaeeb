// One run of `queryd fetcher`'s command for one `fetch` request: spawns the command with the key
// in its environment, collects stdout and stderr through pipes, and turns the outcome into the
// JSON-RPC answer (stdout = data; a non-zero exit = an error whose message is stderr).

import Glibc
import QuerydJSON

/// A running command serving one fetch request.
final class FetchJob {
    /// The id of the daemon's `fetch` request.
    let requestID: JSONValue
    /// The child process.
    let pid: pid_t
    /// Set when the daemon withdrew the request: the command is killed and nothing is answered.
    var isCancelled = false
    private var output: [UInt8] = []
    private var errors: [UInt8] = []
    private var outputFD: Int32
    private var errorFD: Int32

    /// Starts `command` with `environment` added to this process's environment.
    init(requestID: JSONValue, command: [String], environment: [String: String]) throws(ShellTransportError) {
        self.requestID = requestID
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard FetchJob.makePipe(&outputPipe) else { throw ShellTransportError("pipe: \(ShellClient.reason(errno))") }
        guard FetchJob.makePipe(&errorPipe) else {
            outputPipe.forEach { close($0) }
            throw ShellTransportError("pipe: \(ShellClient.reason(errno))")
        }
        defer {
            close(outputPipe[1])
            close(errorPipe[1])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        let argv = command.map { strdup($0) } + [nil]
        let envp = FetchJob.mergedEnvironment(environment).map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, command[0], &actions, nil, argv, envp)
        guard result == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw ShellTransportError("cannot run \(command[0]): \(ShellClient.reason(result))")
        }
        pid = child
        outputFD = outputPipe[0]
        errorFD = errorPipe[0]
    }

    /// The pipe ends still open (to poll).
    var openDescriptors: [Int32] { [outputFD, errorFD].filter { $0 >= 0 } }

    /// Whether both pipes reached end of file.
    var isDrained: Bool { outputFD < 0 && errorFD < 0 }

    /// Reads what `fd` has; closes it at end of file.
    func drain(_ fd: Int32) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { return }
        if count > 0 {
            if fd == outputFD {
                output.append(contentsOf: chunk[0..<count])
            } else {
                errors.append(contentsOf: chunk[0..<count])
            }
            return
        }
        close(fd)
        if fd == outputFD { outputFD = -1 } else { errorFD = -1 }
    }

    /// Kills the command (SIGTERM); its answer will not be sent.
    func cancel() {
        isCancelled = true
        kill(pid, SIGTERM)
    }

    /// Waits for the command to exit and returns the JSON-RPC answer to the `fetch` request.
    /// With `pageResult`, stdout must be the whole answer object (`{"data", "nextPageParam"?, ...}`).
    func finish(pageResult: Bool) -> JSONValue {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        openDescriptors.forEach { close($0) }
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let text = FetchJob.trimmed(errors)
            let message =
                !text.isEmpty
                ? text
                : exited
                    ? "the command exited with status \(code)" : "the command was killed by signal \(status & 0x7f)"
            return answer(error: message)
        }
        let text = FetchJob.trimmed(output)
        let parsed = try? JSONParser.parse(text)
        guard pageResult else {
            return answer(result: ["data": parsed ?? .string(FetchJob.withoutFinalNewline(output))])
        }
        guard let parsed, case .object(let members) = parsed, members["data"] != nil else {
            return answer(error: "--page-result: stdout must be a JSON object with a data member")
        }
        return answer(result: parsed)
    }

    private func answer(result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": requestID, "result": result]
    }

    private func answer(error message: String) -> JSONValue {
        ["jsonrpc": "2.0", "id": requestID, "error": ["code": 1, "message": .string(message)]]
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    private static func withoutFinalNewline(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        if end > 0, bytes[end - 1] == 0x0A { end -= 1 }
        if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// A pipe whose ends close on exec (the child gets only the copies dup2 makes).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// This process's environment with `overrides` replacing or adding variables.
    private static func mergedEnvironment(_ overrides: [String: String]) -> [String] {
        var result: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if overrides[name] == nil { result.append(text) }
            pointer += 1
        }
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) { result.append("\(name)=\(value)") }
        return result
    }
}
