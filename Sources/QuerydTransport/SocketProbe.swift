// What is found at the daemon's socket path before binding (the path itself is resolved by QuerydRPC's SocketPath).
//
// CLibUV is imported for the socket constants: in a whole-module build, the C modules of this target
// that include <sys/socket.h> (CLibUV, CHiredis) own its declarations, and a file importing Glibc
// alone does not see `SOCK_STREAM` there (seen once CHiredis joined the target).
import CLibUV
import Glibc

/// What is at a socket path before the daemon binds it.
public enum SocketProbe: Equatable, Sendable {
    /// Nothing there: bind. (Other `lstat` failures are reported as absent so the bind reports the real error.)
    case absent
    /// A socket nobody listens on (connect: ECONNREFUSED): unlink it, then bind.
    case stale
    /// A socket that accepts connections (or that cannot be probed, e.g. permission denied): refuse to start.
    case live
    /// A regular file, directory or other non-socket: refuse, and do not unlink it.
    case notASocket
    /// A symbolic link (never followed): refuse, and do not unlink it.
    case symlink

    /// Examines `path` with `lstat` and, for a socket, one connection attempt. The attempt uses a non-blocking
    /// socket, which for Unix sockets still answers at once (connected, ECONNREFUSED, or EAGAIN when a live
    /// listener's backlog is full) without ever hanging on a stuck daemon.
    public static func probe(path: String) -> SocketProbe {
        var info = stat()
        if lstat(path, &info) != 0 {
            return .absent
        }
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            return .symlink
        case S_IFSOCK:
            return connectProbe(path: path)
        default:
            return .notASocket
        }
    }

    /// Tries to connect to the socket at `path`; see `probe(path:)`.
    private static func connectProbe(path: String) -> SocketProbe {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return .live
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(AF_UNIX, kind, 0)
        guard descriptor >= 0 else {
            return .live
        }
        defer { close(descriptor) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == 0 {
            return .live
        }
        switch errno {
        case ECONNREFUSED:
            return .stale
        case ENOENT:
            return .absent
        default:
            return .live
        }
    }
}
