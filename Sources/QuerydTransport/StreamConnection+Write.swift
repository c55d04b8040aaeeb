// Writes: a byte buffer (or a small array) is copied into one malloc block [uv_write_t | payload]; a larger
// array is written in place, kept alive by a `WriteHold` until libuv's write callback. The callbacks free
// what their write allocated.
import CLibUV
import Glibc

extension StreamConnection {
    /// Offset of the payload inside a write block: the request size rounded up to 16 bytes.
    private static let writeHeaderSize = (MemoryLayout<uv_write_t>.stride + 15) & ~15
    /// Largest payload of one block (`uv_buf_t.len` is 32-bit); longer writes are split.
    private static let maximumBlockPayload = 1 << 30
    /// Arrays up to this size are copied into their write block rather than held.
    private static let copyThreshold = 8 * 1024

    /// Queues a copy of `bytes` for writing (one allocation, one `uv_write`). A write error closes the connection;
    /// writes after `close()` or `closeAfterWrites()` are ignored.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        loop.assertInLoopThread()
        var offset = 0
        while offset < bytes.count && !isClosed && !isShuttingDown {
            let length = min(bytes.count - offset, Self.maximumBlockPayload)
            writeBlock(bytes.baseAddress! + offset, count: length)
            offset += length
        }
    }

    /// Queues `bytes` for writing without copying them: the array is kept alive until libuv has
    /// written it (one small allocation for the request). Otherwise as `write(_: UnsafeRawBufferPointer)`,
    /// which is also used for a payload of at most `copyThreshold` bytes: copying that into the
    /// request's block costs less than a second allocation and the hold's release.
    public func write(_ bytes: [UInt8]) {
        guard bytes.count > Self.copyThreshold, bytes.count <= Self.maximumBlockPayload else {
            bytes.withUnsafeBytes { write($0) }
            return
        }
        loop.assertInLoopThread()
        guard !isClosed && !isShuttingDown else { return }
        let hold = Unmanaged.passRetained(WriteHold(bytes))
        guard let request = malloc(MemoryLayout<uv_write_t>.stride)?.bindMemory(to: uv_write_t.self, capacity: 1)
        else {
            hold.release()
            close(reason: TransportError(code: UV_ENOMEM.rawValue, context: "write of \(bytes.count) bytes"))
            return
        }
        request.pointee.data = hold.toOpaque()
        // Safety: the bytes belong to the array's storage, which `hold` keeps alive and unmodified (a `let`)
        // until the write callback releases it; libuv reads them only until then.
        let status = hold.takeUnretainedValue().bytes.withUnsafeBytes { payload in
            var buffer = uv_buf_init(
                UnsafeMutableRawPointer(mutating: payload.baseAddress!).assumingMemoryBound(to: CChar.self),
                UInt32(payload.count))
            return uv_write(request, asStream(pipe), &buffer, 1) { request, status in
                let stream = request!.pointee.handle
                Unmanaged<WriteHold>.fromOpaque(request!.pointee.data).release()
                free(request)
                guard status < 0, status != UV_ECANCELED.rawValue else { return }
                let connection = owner(of: asHandle(stream!), as: StreamConnection.self)
                connection.close(reason: TransportError(code: status, context: "write"))
            }
        }
        if let failure = uvFailure(status, "uv_write") {
            hold.release()
            free(request)
            close(reason: failure)
        }
    }

    private func writeBlock(_ source: UnsafeRawPointer, count: Int) {
        let header = Self.writeHeaderSize
        guard let block = malloc(header + count) else {
            close(reason: TransportError(code: UV_ENOMEM.rawValue, context: "write of \(count) bytes"))
            return
        }
        // Safety: the block is owned by libuv from a successful `uv_write` until its callback, which frees it;
        // libuv copies the `uv_buf_t` itself, so only the payload (inside the block) must outlive this call.
        let payload = (block + header).bindMemory(to: CChar.self, capacity: count)
        memcpy(payload, source, count)
        let request = block.bindMemory(to: uv_write_t.self, capacity: 1)
        var buffer = uv_buf_init(payload, UInt32(count))
        let status = uv_write(request, asStream(pipe), &buffer, 1) { request, status in
            let stream = request!.pointee.handle
            free(request)
            guard status < 0, status != UV_ECANCELED.rawValue else { return }
            let connection = owner(of: asHandle(stream!), as: StreamConnection.self)
            connection.close(reason: TransportError(code: status, context: "write"))
        }
        if let failure = uvFailure(status, "uv_write") {
            free(block)
            close(reason: failure)
        }
    }
}

/// Owns the array of one in-place write until libuv's callback releases it.
private final class WriteHold {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
