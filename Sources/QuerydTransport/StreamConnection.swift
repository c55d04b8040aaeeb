// One Unix stream connection (uv_pipe_t): reads into the loop's slab, at most one slab per loop turn
// (ReadBudget.swift); writes go to the socket at once when it takes them, else a malloc'd copy of the rest is
// queued.
import CLibUV
import Glibc
import Synchronization

/// Source of connection ids, unique in the process (loops on several threads may create connections).
private let connectionIDs = Atomic<Int>(0)

/// One accepted or connected Unix stream socket on an `EventLoop`. Bytes only: framing belongs to the delegate.
/// The connection keeps itself alive until it is closed and `connectionDidClose` has been delivered.
/// Without a delegate, reads are dropped and EOF closes the connection (nobody else could).
public final class StreamConnection: LoopHandleOwner {
    /// A number unique among the connections of this process.
    public let id: Int
    /// Receives reads, EOF and the close. Held weakly: the owner of the connection keeps the delegate alive.
    public weak var delegate: (any StreamConnectionDelegate)?
    /// The peer's credentials, read once when the connection was established; `nil` if unavailable.
    public private(set) var peer: PeerCredentials?
    /// The error that closed the connection, if a read, write or shutdown failed.
    public private(set) var closeReason: TransportError?

    let loop: EventLoop
    let pipe = allocateZeroed(uv_pipe_t.self)
    private var closing = false
    private(set) var isShuttingDown = false
    private var receivedEOF = false
    /// The loop's read turn (`EventLoop.readTurn`) in which a read filled the slab: no more reads this turn.
    private var spentTurn: UInt64 = .max

    /// Creates an unconnected pipe handle on `loop`, retained by its handle until the close callback.
    init(loop: EventLoop) {
        loop.assertInLoopThread()
        self.loop = loop
        self.id = connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue
        uvMustSucceed(uv_pipe_init(loop.rawLoop, pipe, 0), "uv_pipe_init")
        retainOwner(self, in: asHandle(pipe))
        loop.register(self)
    }

    deinit {
        pipe.deallocate()
    }

    /// Wraps an accepted socket descriptor (non-blocking). On failure the descriptor is closed and the new handle
    /// is already closing.
    static func adopt(_ descriptor: Int32, loop: EventLoop) -> Result<StreamConnection, TransportError> {
        let connection = StreamConnection(loop: loop)
        if let failure = uvFailure(uv_pipe_open(connection.pipe, descriptor), "uv_pipe_open") {
            Glibc.close(descriptor)
            connection.close(reason: failure)
            return .failure(failure)
        }
        connection.readPeerCredentials()
        return .success(connection)
    }

    /// Records the peer's credentials once the socket is connected.
    func readPeerCredentials() {
        peer = PeerCredentials.read(from: pipe)
    }

    /// True once `close()` was called or an error closed the connection (the close callback may still be pending).
    public var isClosed: Bool {
        closing
    }

    /// Bytes queued in libuv that the kernel has not accepted yet (`uv_stream_get_write_queue_size`).
    public var writeQueueSize: Int {
        Int(uv_stream_get_write_queue_size(asStream(pipe)))
    }

    /// Starts (or resumes) delivering reads to the delegate. Ignored once EOF arrived or the connection is closing.
    public func startReading() {
        loop.assertInLoopThread()
        guard !closing, !isShuttingDown, !receivedEOF else { return }
        let status = uv_read_start(
            asStream(pipe),
            { handle, _, buffer in
                // Safety: the slab is shared by all connections of the loop; libuv calls the read callback right
                // after this alloc callback and the delegate consumes the bytes before returning. `data` holds the
                // +1 reference taken in `init` (see the read callback).
                let loop = EventLoop.owning(handle!.pointee.loop)
                let spent = Unmanaged<StreamConnection>.fromOpaque(handle!.pointee.data)._withUnsafeGuaranteedRef {
                    $0.spentTurn == loop.readTurn
                }
                // An empty buffer makes libuv end this turn's reads of the stream (UV_ENOBUFS, ignored below).
                buffer!.pointee =
                    spent ? uv_buf_init(nil, 0) : uv_buf_init(loop.readSlab, UInt32(EventLoop.readSlabSize))
            },
            { stream, count, buffer in
                // Safety: `data` holds the +1 reference taken in `init`, released only in the close callback,
                // which cannot run during this callback; so the guaranteed (unretained) reference is valid.
                Unmanaged<StreamConnection>.fromOpaque(stream!.pointee.data)._withUnsafeGuaranteedRef {
                    $0.handleRead(count: count, base: buffer?.pointee.base)
                }
            })
        if status == UV_EALREADY.rawValue { return }
        if let failure = uvFailure(status, "uv_read_start") {
            close(reason: failure)
        }
    }

    /// Stops delivering reads (backpressure); the kernel buffers what the peer keeps sending.
    public func stopReading() {
        loop.assertInLoopThread()
        guard !closing else { return }
        uvMustSucceed(uv_read_stop(asStream(pipe)), "uv_read_stop")
    }

    /// Half-closes the write side once every queued write has been flushed, then closes the connection.
    /// Stops reading. Later writes are ignored.
    public func closeAfterWrites() {
        loop.assertInLoopThread()
        guard !closing, !isShuttingDown else { return }
        isShuttingDown = true
        uvMustSucceed(uv_read_stop(asStream(pipe)), "uv_read_stop")
        let request = allocateZeroed(uv_shutdown_t.self)
        let status = uv_shutdown(request, asStream(pipe)) { request, status in
            let stream = request!.pointee.handle
            request!.deallocate()
            let connection = owner(of: asHandle(stream!), as: StreamConnection.self)
            let failure = status == UV_ECANCELED.rawValue ? nil : uvFailure(status, "shutdown")
            connection.close(reason: failure)
        }
        if let failure = uvFailure(status, "uv_shutdown") {
            request.deallocate()
            close(reason: failure)
        }
    }

    /// Closes the connection now; queued writes are dropped. `connectionDidClose` follows from the close callback.
    public func close() {
        loop.assertInLoopThread()
        close(reason: nil)
    }

    func closeFromLoop() {
        close(reason: nil)
    }

    /// Starts closing, remembering the first error that caused it.
    func close(reason: TransportError?) {
        guard !closing else { return }
        closing = true
        closeReason = reason
        uv_close(asHandle(pipe)) { handle in
            let connection = releaseOwner(of: handle, as: StreamConnection.self)
            connection.loop.unregister(connection)
            connection.delegate?.connectionDidClose(connection)
        }
    }

    /// Dispatches one read callback: data, EOF or a read error.
    private func handleRead(count: Int, base: UnsafeMutablePointer<CChar>?) {
        if count > 0 {
            delegate?.connection(self, didRead: UnsafeRawBufferPointer(start: base, count: count))
            // A full slab means more may be waiting: it waits for the next poll, with the other connections.
            if count == EventLoop.readSlabSize {
                spentTurn = loop.readTurn
                loop.endReadTurnAfterPoll()
            }
        } else if count == Int(UV_ENOBUFS.rawValue) {
            return  // this turn's read was spent (see the alloc callback); the stream stays readable
        } else if count == Int(UV_EOF.rawValue) {
            receivedEOF = true
            if let delegate {
                delegate.connectionDidReceiveEOF(self)
            } else {
                close(reason: nil)
            }
        } else if count < 0 {
            close(reason: TransportError(code: Int32(count), context: "read"))
        }
    }
}
