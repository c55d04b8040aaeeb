// Reads a process's resident memory and open descriptors from /proc, and times a ping round trip:
// the measurements behind the "bounded memory" and "unaffected latency" assertions.

import Glibc
import Testing

/// Facts about a running process, read from /proc.
enum ProcessProbe {
    /// The resident set size in bytes (VmRSS of /proc/<pid>/status), or 0 when unreadable.
    static func residentBytes(of pid: pid_t) -> Int {
        let fd = open("/proc/\(pid)/status", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        let text = String(decoding: bytes[0..<count], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.dropFirst(6).filter(\.isNumber)
            return (Int(String(digits)) ?? 0) * 1024
        }
        return 0
    }

    /// How many descriptors the process has open (entries of /proc/<pid>/fd).
    static func openDescriptors(of pid: pid_t) -> Int {
        guard let directory = opendir("/proc/\(pid)/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { count += 1 }
        }
        return count
    }
}

extension LineClient {
    /// The seconds a `server.ping` round trip takes: the median of `samples` round trips, so one
    /// that waited behind a read the daemon was already processing does not decide.
    func pingRoundTrip(samples: Int = 5) throws -> Double {
        var times: [Double] = []
        for _ in 0..<samples {
            let start = Clock.now
            try expectHealthy()
            times.append(Clock.now - start)
        }
        return times.sorted()[samples / 2]
    }
}

extension DaemonProcess {
    /// The daemon's resident memory in bytes.
    var residentBytes: Int { ProcessProbe.residentBytes(of: pid) }

    /// The whole log so far.
    var log: String { logTail(maxBytes: 1 << 20) }
}
