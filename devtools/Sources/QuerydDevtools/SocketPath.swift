// Where the daemon's socket is: the rule `queryd serve` uses (the main package's QuerydRPC.SocketPath), restated
// here because this package does not depend on the daemon's.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves the daemon's socket path.
public enum SocketPath {
    /// `explicit` (`--socket PATH`), else `$QUERYD_SOCKET`, else `$XDG_RUNTIME_DIR/queryd.sock` when that directory
    /// is absolute, else `/tmp/queryd-<uid>.sock`. Empty values count as unset.
    public static func resolve(explicit: String?, environment: [String: String], userID: UInt32? = nil) -> String {
        if let explicit, !explicit.isEmpty {
            return explicit
        }
        if let configured = environment["QUERYD_SOCKET"], !configured.isEmpty {
            return configured
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime.hasSuffix("/") ? runtime + "queryd.sock" : runtime + "/queryd.sock"
        }
        return "/tmp/queryd-\(userID ?? getuid()).sock"
    }
}
