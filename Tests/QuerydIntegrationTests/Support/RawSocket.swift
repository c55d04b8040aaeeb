// A bare Unix-socket client for flood tests: non-blocking sends that stop when the daemon stops
// reading, and line reads with a deadline.

import Glibc
import QuerydTestSupport

/// One connection whose sends never block, so a test can see backpressure.
final class RawSocket {
    private(set) var fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = try UnixSocket.connect(path: path)
    }

    deinit { close() }

    /// Closes the connection (once).
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// Sends as much of `bytes` as the socket takes, waiting at most 300 ms for room each time it
    /// is full; returns how many bytes were sent (fewer than all once the daemon stops reading).
    func sendUntilFull(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EINTR {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&poller, 1, 300) == 0 { break }
            } else {
                break
            }
        }
        return offset
    }

    /// The next line, or nil at end of stream (or a reset); throws after `timeout` seconds.
    func readLine(timeout: Double = 10) throws -> String? {
        let deadline = Clock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - Clock.now
            guard remaining > 0 else { throw IntegrationError.timeout("a line", seconds: timeout) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(remaining * 1000) + 1) == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads and discards until end of stream; returns the bytes seen (throws after `timeout`).
    func drainUntilClosed(timeout: Double = 10) throws -> Int {
        var total = buffer.count
        buffer = []
        let deadline = Clock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while Clock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count <= 0 { return total }
            total += count
        }
        throw IntegrationError.timeout("the end of stream", seconds: timeout)
    }
}
