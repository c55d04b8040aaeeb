// Blocking Unix-socket set-up for tests: connect, bind, listen, and "does anything accept here?".

import Glibc

/// Opens test sockets on Unix socket paths.
public enum UnixSocket {
    /// A stream socket (close-on-exec) connected to `path`.
    public static func connect(path: String) throws(SystemCallError) -> Int32 {
        let fd = try open(path: path)
        guard withAddress(path, { Glibc.connect(fd, $0, $1) }) == 0 else { throw closing(fd, "connect \(path)") }
        return fd
    }

    /// A stream socket (close-on-exec) bound to `path` and, when `backlog` is given, listening.
    public static func bind(path: String, backlog: Int32? = nil) throws(SystemCallError) -> Int32 {
        let fd = try open(path: path)
        guard withAddress(path, { Glibc.bind(fd, $0, $1) }) == 0 else { throw closing(fd, "bind \(path)") }
        if let backlog, listen(fd, backlog) != 0 { throw closing(fd, "listen \(path)") }
        return fd
    }

    /// Whether something accepts connections on `path` right now.
    public static func canConnect(path: String) -> Bool {
        guard let fd = try? connect(path: path) else { return false }
        close(fd)
        return true
    }

    private static func open(path: String) throws(SystemCallError) -> Int32 {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw SystemCallError("socket path too long: \(path)", errno: ENAMETOOLONG)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket", errno: errno) }
        return fd
    }

    /// Closes `fd` after a failed call, keeping the call's errno.
    private static func closing(_ fd: Int32, _ call: String) -> SystemCallError {
        let code = errno
        close(fd)
        return SystemCallError(call, errno: code)
    }

    /// Calls `body` with `path` as a `sockaddr_un` (checked by `open` to fit with its terminating NUL).
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
