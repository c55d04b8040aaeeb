// Where the daemon's socket lives: the one statement of the resolution rules, shared by the daemon, its shell
// commands and the Swift client. Pure: the caller passes the environment and the user id in.

/// Resolves the daemon's socket path.
public enum SocketPath {
    /// The environment variables ``resolve(explicit:environment:userID:)`` consults.
    public static let variableNames = ["QUERYD_SOCKET", "XDG_RUNTIME_DIR"]

    /// The contract's order: `explicit` (`--socket PATH`), else `$QUERYD_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/queryd.sock`, else `/tmp/queryd-<userID>.sock`. Empty values count as unset; a relative
    /// `$XDG_RUNTIME_DIR` is ignored, as the XDG Base Directory specification requires.
    public static func resolve(explicit: String?, environment: [String: String], userID: UInt32) -> String {
        if let explicit, !explicit.isEmpty {
            return explicit
        }
        if let configured = environment["QUERYD_SOCKET"], !configured.isEmpty {
            return configured
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime.hasSuffix("/") ? runtime + "queryd.sock" : runtime + "/queryd.sock"
        }
        return "/tmp/queryd-\(userID).sock"
    }
}
