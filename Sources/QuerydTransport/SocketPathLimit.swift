// Validation of Unix socket paths against sun_path, which libuv 1.44 would otherwise silently truncate.
import CLibUV

/// The longest path `sockaddr_un.sun_path` holds on Linux with its terminating NUL (108 bytes).
let maximumSocketPathBytes = 107

/// Returns why `path` cannot name a Unix socket (empty, an embedded NUL, or longer than 107 bytes), or `nil`.
func socketPathProblem(_ path: String, context: String) -> TransportError? {
    let length = path.utf8.count
    if length == 0 || path.utf8.contains(0) {
        return TransportError(code: UV_EINVAL.rawValue, context: "\(context): socket path must be non-empty, no NUL")
    }
    if length > maximumSocketPathBytes {
        return TransportError(
            code: UV_ENAMETOOLONG.rawValue,
            context: "\(context): socket path is \(length) bytes, sun_path allows \(maximumSocketPathBytes): \(path)")
    }
    return nil
}
