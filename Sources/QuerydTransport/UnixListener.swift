// A listening Unix socket (uv_pipe_t): private bind (umask 0077, chmod 0600), accept, inode-checked unlink.
import CLibUV
import Glibc

/// Listens on a Unix socket path and hands every accepted connection to `onAccept`.
public final class UnixListener: LoopHandleOwner {
    /// The socket path this listener bound.
    public let path: String
    /// Receives each accepted connection (not yet reading). Without a handler, connections are closed at once.
    public var onAccept: ((StreamConnection) -> Void)?
    /// Receives accept failures (EAGAIN excepted), e.g. EMFILE; the listener keeps listening.
    public var onError: ((TransportError) -> Void)?

    private let loop: EventLoop
    private let handle: UnsafeMutablePointer<uv_pipe_t>
    private var closing = false
    private var boundDevice: UInt64 = 0
    private var boundInode: UInt64 = 0
    private var isBound = false

    /// Binds `path` with umask 0077, chmods it to 0600, records its device and inode, and starts listening.
    /// The path must not exist (remove a stale socket first). Throws for a path longer than sun_path allows.
    public init(loop: EventLoop, path: String, backlog: Int32 = 511) throws(TransportError) {
        loop.assertInLoopThread()
        if let problem = socketPathProblem(path, context: "listen") {
            throw problem
        }
        self.loop = loop
        self.path = path
        self.handle = allocateZeroed(uv_pipe_t.self)
        uvMustSucceed(uv_pipe_init(loop.rawLoop, handle, 0), "uv_pipe_init")
        retainOwner(self, in: asHandle(handle))
        loop.register(self)
        do {
            try bindPrivately()
            try uvCheck(
                uv_listen(
                    asStream(handle), backlog,
                    { server, status in
                        owner(of: asHandle(server!), as: UnixListener.self).handleIncoming(status: status)
                    }), "listen \(path)")
        } catch {
            close(unlinkSocket: true)
            throw error
        }
    }

    deinit {
        handle.deallocate()
    }

    /// Stops listening. With `unlinkSocket`, removes the path only if it is still the socket this listener bound
    /// (same device and inode), so a socket that another process has put there since is left alone.
    public func close(unlinkSocket: Bool) {
        loop.assertInLoopThread()
        guard !closing else { return }
        closing = true
        if unlinkSocket && isBound && pathIsOurSocket() {
            unlink(path)
        }
        forgetBoundPath()
        uv_close(asHandle(handle)) { handle in
            let listener = releaseOwner(of: handle, as: UnixListener.self)
            listener.loop.unregister(listener)
        }
    }

    func closeFromLoop() {
        close(unlinkSocket: true)
    }

    private func bindPrivately() throws(TransportError) {
        let previousMask = umask(0o077)
        let status = uv_pipe_bind(handle, path)
        umask(previousMask)
        try uvCheck(status, "bind \(path)")
        isBound = true
        if chmod(path, 0o600) != 0 {
            throw TransportError(errno: errno, context: "chmod 0600 \(path)")
        }
        var info = stat()
        if lstat(path, &info) != 0 {
            throw TransportError(errno: errno, context: "lstat \(path)")
        }
        boundDevice = UInt64(info.st_dev)
        boundInode = UInt64(info.st_ino)
    }

    /// Stops libuv from unlinking the bound path itself: libuv 1.44 unlinks `pipe_fname` unconditionally when the
    /// handle closes, which would remove a socket another process has since bound at the same path.
    private func forgetBoundPath() {
        // Safety: `pipe_fname` is the copy of the path libuv made with its default allocator (`malloc`; the transport
        // never calls `uv_replace_allocator`) in `uv_pipe_bind`; libuv reads it only in `uv__pipe_close` and
        // `uv_pipe_getsockname`, both after this point only through this now-NULL field.
        if let name = handle.pointee.pipe_fname {
            free(UnsafeMutableRawPointer(mutating: name))
            handle.pointee.pipe_fname = nil
        }
    }

    private func pathIsOurSocket() -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return UInt64(info.st_dev) == boundDevice && UInt64(info.st_ino) == boundInode
            && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    private func handleIncoming(status: Int32) {
        if let failure = uvFailure(status, "accept on \(path)") {
            onError?(failure)
            return
        }
        switch StreamConnection.accept(from: asStream(handle), loop: loop) {
        case .success(let connection):
            if let onAccept {
                onAccept(connection)
            } else {
                connection.close()
            }
        case .failure(let failure):
            if failure.code != UV_EAGAIN.rawValue {
                onError?(failure)
            }
        }
    }
}
