// Starting the built `queryd` (or any program) from a test: where the binary is, and a posix_spawn that gives the
// child a clean signal state and the output files the test wants.

public import Glibc

/// Where the package and the `queryd` binary under test are.
public enum QuerydBinary {
    /// The package root, derived from this file's location (`Tests/QuerydTestSupport`).
    public static var packageRoot: String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    /// The binary under test: `$QUERYD_BIN` when set and not empty, else `<package root>/.build/debug/queryd`.
    public static var path: String {
        if let override = getenv("QUERYD_BIN"), override.pointee != 0 { return String(cString: override) }
        return packageRoot + "/.build/debug/queryd"
    }
}

/// Starts child processes for tests.
public enum ChildProcess {
    /// Starts `arguments[0]` with `arguments`, stdin from /dev/null, stdout to the file `output` and stderr to
    /// `errors` (nil: inherited; the same path: one file for both), created mode 0600 and truncated unless
    /// `appending`; no other descriptor of the test process is inherited (`strayDescriptors` opens that many
    /// more, from 3 up, to stand for a parent that leaks them). Test threads (Dispatch workers) may block signals, so the child starts with an empty signal
    /// mask and default dispositions for SIGTERM, SIGINT, SIGPIPE and SIGHUP, or SIGTERM would never reach it.
    public static func spawn(
        _ arguments: [String], output: String? = nil, errors: String? = nil, appending: Bool = false,
        strayDescriptors: Int = 0
    ) throws(SystemCallError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let flags = O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC)
        // Descriptors the test process has open for other tests running beside this one (their sockets,
        // pipes, files) are not the child's: a daemon under a low open-file limit would count them.
        closeInheritedDescriptors(&actions)
        // Descriptors 3, 4, … left open as a careless parent would leave them (copies of /dev/null).
        for descriptor in 0..<Int32(strayDescriptors) {
            posix_spawn_file_actions_addopen(&actions, 3 + descriptor, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let errors { posix_spawn_file_actions_addopen(&actions, 2, errors, flags, 0o600) }
        if let output, output == errors {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        } else if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output, flags, 0o600)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = argv.withUnsafeBufferPointer {
            posix_spawn(&pid, arguments[0], &actions, &attributes, $0.baseAddress!, environ)
        }
        guard result == 0 else { throw SystemCallError("posix_spawn \(arguments[0])", errno: result) }
        return pid
    }

    /// Adds glibc's "close every descriptor from 3 up" action (2.34 and later; looked up at run time,
    /// since the Glibc module does not export the `_np` declaration). Without it, nothing is added.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}
