// A listening Unix socket: private bind (umask 0077, chmod 0600), accept, inode-checked unlink, and a
// reserve descriptor so a peer is told why when the process is out of file descriptors.
//
// The socket is made and accepted from here (accept4 when a uv_poll_t says it is readable) rather
// than by libuv's uv_listen, because libuv answers EMFILE by accepting and closing pending
// connections silently. Here, on EMFILE or ENFILE, the reserve descriptor is closed, one connection
// is accepted with the freed slot, `overflowLine` is written to it, it is closed, and the reserve is
// opened again (the technique of libuv's own trick, of Redis and of nginx), so a refused peer always
// reads a line instead of a bare EOF.
import CLibUV
import Glibc

/// Listens on a Unix socket path and hands every accepted connection to `onAccept`.
public final class UnixListener: LoopHandleOwner {
    /// Connections accepted per readiness callback at most, so a flood cannot starve the loop.
    static let acceptsPerWakeup = 128

    /// The socket path this listener bound.
    public let path: String
    /// Receives each accepted connection (not yet reading). Without a handler, connections are closed at once.
    public var onAccept: ((StreamConnection) -> Void)?
    /// Receives accept failures other than running out of descriptors; the listener keeps listening.
    public var onError: ((TransportError) -> Void)?
    /// Written (best effort, one non-blocking write) to a connection refused because the process is out of
    /// file descriptors, before it is closed.
    public var overflowLine: [UInt8] = []
    /// Called after each connection refused because the process is out of file descriptors, with the errno.
    public var onOverflow: ((TransportError) -> Void)?

    private let loop: EventLoop
    private let socket: Int32
    private let poll: UnsafeMutablePointer<uv_poll_t>
    private var reserve: Int32
    private var closing = false
    private var boundDevice: UInt64 = 0
    private var boundInode: UInt64 = 0

    /// Binds `path` with umask 0077, chmods it to 0600, records its device and inode, and starts listening.
    /// The path must not exist (remove a stale socket first). Throws for a path longer than sun_path allows.
    public init(loop: EventLoop, path: String, backlog: Int32 = 511) throws(TransportError) {
        loop.assertInLoopThread()
        if let problem = socketPathProblem(path, context: "listen") {
            throw problem
        }
        self.loop = loop
        self.path = path
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw TransportError(errno: errno, context: "socket for \(path)") }
        reserve = Self.openReserve()
        poll = allocateZeroed(uv_poll_t.self)
        do {
            try bindPrivately(backlog: backlog)
            try uvCheck(uv_poll_init(loop.rawLoop, poll, socket), "uv_poll_init \(path)")
        } catch {
            if boundInode != 0 { unlink(path) }
            Glibc.close(socket)
            if reserve >= 0 { Glibc.close(reserve) }
            // Every stored property is set, so `deinit` runs and frees `poll`.
            throw error
        }
        retainOwner(self, in: asHandle(poll))
        loop.register(self)
        uvMustSucceed(
            uv_poll_start(poll, Int32(UV_READABLE.rawValue)) { poll, status, _ in
                owner(of: asHandle(poll!), as: UnixListener.self).handleIncoming(status: status)
            }, "uv_poll_start")
    }

    deinit {
        poll.deallocate()
    }

    /// Stops listening. With `unlinkSocket`, removes the path only if it is still the socket this listener bound
    /// (same device and inode), so a socket that another process has put there since is left alone.
    public func close(unlinkSocket: Bool) {
        loop.assertInLoopThread()
        guard !closing else { return }
        closing = true
        if unlinkSocket && pathIsOurSocket() {
            unlink(path)
        }
        uv_close(asHandle(poll)) { handle in
            let listener = releaseOwner(of: handle, as: UnixListener.self)
            Glibc.close(listener.socket)
            if listener.reserve >= 0 { Glibc.close(listener.reserve) }
            listener.loop.unregister(listener)
        }
    }

    func closeFromLoop() {
        close(unlinkSocket: true)
    }

    private static func openReserve() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    private func bindPrivately(backlog: Int32) throws(TransportError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            // `socketPathProblem` checked that the path and its NUL fit in sun_path.
            buffer.copyBytes(from: path.utf8)
        }
        let previousMask = umask(0o077)
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        let bindErrno = errno
        umask(previousMask)
        guard status == 0 else { throw TransportError(errno: bindErrno, context: "bind \(path)") }
        var info = stat()
        if lstat(path, &info) != 0 {
            throw TransportError(errno: errno, context: "lstat \(path)")
        }
        boundDevice = UInt64(info.st_dev)
        boundInode = UInt64(info.st_ino)
        if chmod(path, 0o600) != 0 {
            throw TransportError(errno: errno, context: "chmod 0600 \(path)")
        }
        if listen(socket, backlog) != 0 {
            throw TransportError(errno: errno, context: "listen \(path)")
        }
    }

    private func pathIsOurSocket() -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return UInt64(info.st_dev) == boundDevice && UInt64(info.st_ino) == boundInode
            && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    private func handleIncoming(status: Int32) {
        if let failure = uvFailure(status, "poll \(path)") {
            onError?(failure)
            return
        }
        for _ in 0..<Self.acceptsPerWakeup where !closing {
            let descriptor = acceptOne()
            if descriptor >= 0 {
                adopt(descriptor)
                continue
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK: return
            case EINTR, ECONNABORTED: continue
            case EMFILE, ENFILE:
                if !refuseForLackOfDescriptors(errno) { return }
            default:
                onError?(TransportError(errno: errno, context: "accept on \(path)"))
                return
            }
        }
    }

    /// Accepts one pending connection (close-on-exec; libuv makes it non-blocking when it adopts it), or -1
    /// with `errno` set.
    private func acceptOne() -> Int32 {
        let descriptor = accept(socket, nil, nil)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return descriptor
    }

    private func adopt(_ descriptor: Int32) {
        switch StreamConnection.adopt(descriptor, loop: loop) {
        case .success(let connection):
            if let onAccept {
                onAccept(connection)
            } else {
                connection.close()
            }
        case .failure(let failure):
            onError?(failure)
        }
    }

    /// Frees the reserve descriptor, accepts one connection with it, writes `overflowLine`, closes it and takes
    /// the reserve again. Returns whether a connection was refused this way (false: none was pending, or no
    /// reserve could be freed).
    private func refuseForLackOfDescriptors(_ code: Int32) -> Bool {
        let failure = TransportError(errno: code, context: "accept on \(path)")
        guard reserve >= 0 else {
            reserve = Self.openReserve()
            onError?(failure)
            return false
        }
        Glibc.close(reserve)
        let descriptor = acceptOne()
        if descriptor >= 0 {
            _ = overflowLine.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            Glibc.close(descriptor)
        }
        reserve = Self.openReserve()
        guard descriptor >= 0 else { return false }
        onOverflow?(failure)
        return true
    }
}
