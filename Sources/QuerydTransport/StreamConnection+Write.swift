// Writes: each write is first offered to the socket with `uv_try_write` (with nothing queued, a Unix
// socket usually takes it all at once: no request, no copy). Whatever the kernel did not accept is
// copied into one malloc block [uv_write_t | payload] and queued with `uv_write`, whose callback frees
// it. `uv_try_write` refuses while earlier writes are queued, so bytes always reach the peer in order.
import CLibUV
import Glibc

extension StreamConnection {
    /// Offset of the payload inside a write block: the request size rounded up to 16 bytes.
    private static let writeHeaderSize = (MemoryLayout<uv_write_t>.stride + 15) & ~15
    /// Largest payload of one block (`uv_buf_t.len` is 32-bit); longer writes are split.
    private static let maximumBlockPayload = 1 << 30

    /// Writes `bytes`: as much as the socket takes now, and a copy of the rest queued for libuv (one
    /// allocation, one `uv_write`). The caller's buffer is not used after this returns. A write error
    /// closes the connection; writes after `close()` or `closeAfterWrites()` are ignored.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        loop.assertInLoopThread()
        guard !bytes.isEmpty, !isClosed, !isShuttingDown else { return }
        var offset = writeNow(bytes)
        while offset < bytes.count && !isClosed && !isShuttingDown {
            let length = min(bytes.count - offset, Self.maximumBlockPayload)
            writeBlock(bytes.baseAddress! + offset, count: length)
            offset += length
        }
    }

    /// Writes `bytes` as `write(_: UnsafeRawBufferPointer)` does (the array is not kept).
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Offers `bytes` to the socket without blocking; returns how many it accepted (0 when it would
    /// block, when writes are already queued, or on an error, which the queued `uv_write` then reports
    /// through its callback as before).
    private func writeNow(_ bytes: UnsafeRawBufferPointer) -> Int {
        let length = min(bytes.count, Self.maximumBlockPayload)
        // Safety: libuv reads the buffer only during this call.
        var buffer = uv_buf_init(
            UnsafeMutableRawPointer(mutating: bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
            UInt32(length))
        let written = uv_try_write(asStream(pipe), &buffer, 1)
        return written > 0 ? Int(written) : 0
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
