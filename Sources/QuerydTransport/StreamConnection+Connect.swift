// Client side: connecting a StreamConnection to a Unix socket path (in-process tests and clients).
import CLibUV

extension StreamConnection {
    /// Connects to the Unix socket at `path` and calls `completion` on the loop thread with the connection (not yet
    /// reading) or the error. An invalid path (empty, too long for sun_path) fails before `connect` returns.
    public static func connect(
        loop: EventLoop, path: String, _ completion: @escaping (Result<StreamConnection, TransportError>) -> Void
    ) {
        loop.assertInLoopThread()
        if let problem = socketPathProblem(path, context: "connect") {
            completion(.failure(problem))
            return
        }
        let connection = StreamConnection(loop: loop)
        let pending = PendingConnect(connection: connection, path: path, completion: completion)
        let request = allocateZeroed(uv_connect_t.self)
        // Safety: the request's `data` holds a +1 reference to `pending`, balanced in the connect callback, which
        // libuv calls exactly once (with UV_ECANCELED if the handle is closed first).
        request.pointee.data = Unmanaged.passRetained(pending).toOpaque()
        uv_pipe_connect(request, connection.pipe, path) { request, status in
            let pending = Unmanaged<PendingConnect>.fromOpaque(request!.pointee.data).takeRetainedValue()
            request!.deallocate()
            pending.finish(status: status)
        }
    }
}

/// What a connect callback needs: the connection being connected and the caller's completion.
private final class PendingConnect {
    let connection: StreamConnection
    let path: String
    let completion: (Result<StreamConnection, TransportError>) -> Void

    init(
        connection: StreamConnection, path: String,
        completion: @escaping (Result<StreamConnection, TransportError>) -> Void
    ) {
        self.connection = connection
        self.path = path
        self.completion = completion
    }

    func finish(status: Int32) {
        if let failure = uvFailure(status, "connect \(path)") {
            connection.close(reason: failure)
            completion(.failure(failure))
        } else {
            connection.readPeerCredentials()
            completion(.success(connection))
        }
    }
}
