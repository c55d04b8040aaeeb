// The daemon and its file-descriptor limit, as Redis does it: at start RLIMIT_NOFILE is raised as far
// as the hard limit allows to fit `--max-connections` plus the daemon's own descriptors; when it
// cannot be, the effective connection limit is lowered to what fits, and logged. Connections past it
// get the -32006 line; a connection refused because descriptors still ran out (the listener's
// reserve descriptor) gets it too. Accept failures are logged at most once a second.

import Glibc
import Logging

/// Fits the connection limit to the process's descriptor limit.
enum DescriptorBudget {
    /// Descriptors kept for the daemon itself: stdio, the loop (epoll, signal pipe, async wakeups), the
    /// listener and its reserve, the log file, the persistence file with its -wal and -shm, and headroom
    /// for refused connections in flight.
    static let reserved = 32

    /// Descriptors the daemon opens after it sized the connection limit: the loop's (epoll, signal pipe,
    /// async wakeups), the listener and its reserve, the persistence file with its -wal and -shm, a
    /// reopened log file, and headroom. Those open before (stdio, the runtime's, the log file, and any a
    /// parent left open) are counted.
    static let openedLater = 16

    /// Raises the soft RLIMIT_NOFILE to fit `connections` (up to the hard limit) and returns the number of
    /// connections that fit: `connections`, or fewer (at least 1) when the limit cannot be raised enough.
    /// Descriptors already open (among them any a careless parent left open) count against the limit.
    static func fit(connections: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        let open = openDescriptorCount()
        let own = max(reserved, open + openedLater)
        if own > reserved { logger.info("\(open) descriptors are open at start; \(own) are kept for the daemon") }
        let needed = rlim_t(connections + own)
        if limit.rlim_cur < needed {
            let wanted = min(needed, limit.rlim_max)
            var raised = limit
            raised.rlim_cur = wanted
            if wanted > limit.rlim_cur, setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
                logger.info("raised the open file limit from \(limit.rlim_cur) to \(wanted)")
                limit.rlim_cur = wanted
            }
        }
        guard limit.rlim_cur < needed else { return connections }
        let fitting = max(1, Int(limit.rlim_cur) - own)
        logger.warning(
            """
            the open file limit is \(limit.rlim_cur) (hard limit \(limit.rlim_max)): serving at most \(fitting) \
            connections instead of --max-connections \(connections); raise it (ulimit -n) to serve more
            """)
        return fitting
    }
}

extension DescriptorBudget {
    /// The descriptors open in this process now (the entries of /proc/self/fd, less the one reading
    /// it); 3 (stdio) where /proc is not there to tell.
    static func openDescriptorCount() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 3 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.first }
            if name != UInt8(ascii: ".") { count += 1 }
        }
        return count - 1
    }
}

/// Lets a repeated message through at most once per interval and counts the ones held back.
struct RateLimitedLog {
    let intervalMilliseconds: UInt64
    private var lastAllowed: UInt64?
    private var suppressed = 0

    init(intervalMilliseconds: UInt64 = 1000) {
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// Whether to log now; when yes, also how many were held back since the last one logged.
    mutating func allow(now: UInt64) -> (allowed: Bool, suppressed: Int) {
        if let lastAllowed, now < lastAllowed + intervalMilliseconds {
            suppressed += 1
            return (false, 0)
        }
        lastAllowed = now
        defer { suppressed = 0 }
        return (true, suppressed)
    }
}
