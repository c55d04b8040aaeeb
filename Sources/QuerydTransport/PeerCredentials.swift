// Who is on the other end of a Unix socket connection (SO_PEERCRED), and the delegate protocol of connections.
import CLibUV

/// The peer's process, user and group ids as the kernel recorded them when the peer called `connect(2)`
/// (for an accepted connection) or `listen(2)` (for a connected client). The pid is a label only: pids are reused.
public struct PeerCredentials: Sendable, Equatable {
    /// The peer's process id.
    public let pid: Int32
    /// The peer's effective user id.
    public let uid: UInt32
    /// The peer's effective group id.
    public let gid: UInt32

    /// Creates credentials from their three ids.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Reads SO_PEERCRED from the descriptor of a connected pipe handle; `nil` if the kernel refuses.
    static func read(from pipe: UnsafeMutablePointer<uv_pipe_t>) -> PeerCredentials? {
        var descriptor: uv_os_fd_t = -1
        guard uvFailure(uv_fileno(asHandle(pipe), &descriptor), "uv_fileno") == nil else { return nil }
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        guard queryd_peer_credentials(descriptor, &pid, &uid, &gid) == 0 else { return nil }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }
}

/// Receives the events of one `StreamConnection`, always on the loop thread.
public protocol StreamConnectionDelegate: AnyObject {
    /// Bytes arrived. `bytes` points into the loop's shared read buffer and is valid only during this call.
    func connection(_ connection: StreamConnection, didRead bytes: UnsafeRawBufferPointer)
    /// The peer shut down its write side. The connection stays open for writing: finish the requests already read,
    /// then call `closeAfterWrites()`.
    func connectionDidReceiveEOF(_ connection: StreamConnection)
    /// The connection is closed (called exactly once, from libuv's close callback). No other event follows.
    func connectionDidClose(_ connection: StreamConnection)
}
