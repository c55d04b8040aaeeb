// The few C library differences between Linux (Glibc) and Apple platforms (Darwin) that the socket code meets.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers over the C calls whose spelling differs between Glibc and Darwin.
enum Platform {
    /// `SOCK_STREAM` as the `socket` call's `type` argument (an enum in Glibc, an integer in Darwin).
    #if canImport(Glibc)
        static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
        static let streamSocket = SOCK_STREAM
    #endif

    /// Flags for `send`: Linux suppresses SIGPIPE per call; Darwin has no such flag (see ``noSigPipe(_:)``).
    #if canImport(Glibc)
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        static let sendFlags: Int32 = 0
    #endif

    /// On Darwin, sets SO_NOSIGPIPE so a write to a closed socket fails with EPIPE instead of a signal.
    static func noSigPipe(_ fd: Int32) {
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// `close(2)`.
    static func closeDescriptor(_ fd: Int32) { _ = close(fd) }

    /// `shutdown(2)` of both directions.
    static func shutdownBoth(_ fd: Int32) { _ = shutdown(fd, Int32(SHUT_RDWR)) }

    /// `errno` as text.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The process's real user id.
    static func userID() -> UInt32 { UInt32(getuid()) }
}
