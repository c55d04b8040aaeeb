// One run of `queryd fetcher`'s command for one `fetch` request: spawns the command with the request
// in its environment, collects stdout and stderr through pipes on a thread of its own (the command may
// run for long), and turns the outcome into the fetcher's answer (stdout = data; a non-zero exit = the
// error {"code":1,"message":<stderr>}). Cancelling the calling task kills the command (SIGTERM to its
// process group, so a shell's children go with it).

import Dispatch
import Glibc
import QuerydClient
import QuerydJSON
import QuerydRPC

/// A spawned command serving one fetch request: its process and the read ends of its stdout and stderr.
struct FetchJob: Sendable {
    /// The child process.
    let pid: pid_t
    private let outputFD: Int32
    private let errorFD: Int32

    /// Runs `command` for `request` and returns its answer; throws the error object to send.
    static func run(_ command: [String], for request: FetchRequest, pageResult: Bool) async throws -> FetchResult {
        let job = try FetchJob(command: command, environment: environment(for: request))
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A serial queue of its own per command: its blocking reads hold one thread of Dispatch's pool.
                DispatchQueue(label: "queryd-fetch").async { continuation.resume(returning: job.collect()) }
            }
        } onCancel: {
            // The command leads a process group of its own: the whole group goes, so a child the
            // command started (`sh -c 'sleep 9; echo 1'`) does not run on, holding stdout open.
            kill(-job.pid, SIGTERM)
        }
        return try outcome.answer(pageResult: pageResult)
    }

    /// The variables the command gets: QUERYD_KEY, QUERYD_ATTEMPT and, when present, QUERYD_PAGE_PARAM,
    /// QUERYD_DIRECTION and QUERYD_META (JSON values as JSON text).
    static func environment(for request: FetchRequest) -> [String: String] {
        var environment = ["QUERYD_KEY": request.key.encodedString, "QUERYD_ATTEMPT": String(request.attempt)]
        if let pageParam = request.pageParam { environment["QUERYD_PAGE_PARAM"] = pageParam.encodedString }
        if let direction = request.direction { environment["QUERYD_DIRECTION"] = direction }
        if let meta = request.meta { environment["QUERYD_META"] = meta.encodedString }
        return environment
    }

    /// Starts `command` with `environment` added to this process's environment, stdin from /dev/null.
    private init(command: [String], environment: [String: String]) throws(RPCError) {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard FetchJob.makePipe(&outputPipe) else { throw FetchJob.failure("pipe: \(FetchJob.reason(errno))") }
        guard FetchJob.makePipe(&errorPipe) else {
            outputPipe.forEach { close($0) }
            throw FetchJob.failure("pipe: \(FetchJob.reason(errno))")
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
        // The spawning thread is a concurrency pool thread, which blocks signals; the command starts with none
        // blocked, or the SIGTERM of a cancelled fetch would never reach it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv = command.map { strdup($0) } + [nil]
        let envp = FetchJob.mergedEnvironment(environment).map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, command[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw FetchJob.failure("cannot run \(command[0]): \(FetchJob.reason(result))")
        }
        pid = child
        outputFD = outputPipe[0]
        errorFD = errorPipe[0]
    }

    /// Reads both pipes to end of file (blocking), closes them and waits for the command to exit.
    private func collect() -> CommandOutcome {
        var outcome = CommandOutcome()
        var open = [outputFD, errorFD]
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in descriptors where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count > 0 {
                    if entry.fd == outputFD {
                        outcome.output.append(contentsOf: chunk[0..<count])
                    } else {
                        outcome.errors.append(contentsOf: chunk[0..<count])
                    }
                    continue
                }
                close(entry.fd)
                open.removeAll { $0 == entry.fd }
            }
        }
        open.forEach { close($0) }
        while waitpid(pid, &outcome.status, 0) < 0, errno == EINTR {}
        return outcome
    }

    /// The error object a failed run answers with: code 1 and `message`.
    static func failure(_ message: String) -> RPCError {
        RPCError(RPCErrorCode(rawValue: 1), message)
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

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

/// What a finished command left: its wait status and everything it wrote.
struct CommandOutcome: Sendable {
    var status: Int32 = 0
    var output: [UInt8] = []
    var errors: [UInt8] = []

    /// The fetcher's answer: stdout as JSON (or else as text) after a zero exit; with `pageResult`, stdout
    /// must be the whole answer object (`{"data", "nextPageParam"?, "previousPageParam"?}`). Otherwise throws
    /// the error object, whose message is stderr (or how the command ended).
    func answer(pageResult: Bool) throws(RPCError) -> FetchResult {
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let text = CommandOutcome.trimmed(errors)
            throw FetchJob.failure(
                !text.isEmpty
                    ? text
                    : exited
                        ? "the command exited with status \(code)" : "the command was killed by signal \(status & 0x7f)"
            )
        }
        let parsed = try? JSONParser.parse(CommandOutcome.trimmed(output))
        guard pageResult else { return .data(parsed ?? .string(CommandOutcome.withoutFinalNewline(output))) }
        guard let parsed, case .object(let members) = parsed, let data = members["data"] else {
            throw FetchJob.failure("--page-result: stdout must be a JSON object with a data member")
        }
        return FetchResult(
            data: data, nextPageParam: members["nextPageParam"], previousPageParam: members["previousPageParam"])
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
}
