// The default `node` name of `server.hello`: which daemon process answered, for logs and clusters.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names this daemon process.
enum NodeName {
    /// `<host name>:<pid>`, e.g. `build-7:4121` (`localhost` when the host name cannot be read).
    static func hostAndProcess() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&buffer, buffer.count - 1) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return "\(host.isEmpty ? "localhost" : host):\(getpid())"
    }
}
