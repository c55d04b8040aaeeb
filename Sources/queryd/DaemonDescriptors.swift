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

    /// Raises the soft RLIMIT_NOFILE to fit `connections` (up to the hard limit) and returns the number of
    /// connections that fit: `connections`, or fewer (at least 1) when the limit cannot be raised enough.
    static func fit(connections: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        let needed = rlim_t(connections + reserved)
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
        let fitting = max(1, Int(limit.rlim_cur) - reserved)
        logger.warning(
            """
            the open file limit is \(limit.rlim_cur) (hard limit \(limit.rlim_max)): serving at most \(fitting) \
            connections instead of --max-connections \(connections); raise it (ulimit -n) to serve more
            """)
        return fitting
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
