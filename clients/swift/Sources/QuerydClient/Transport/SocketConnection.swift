// The Unix-socket boundary: connect, write whole lines, and a dedicated reader thread that frames and
// parses incoming lines and hands them to Swift concurrency through an AsyncStream.

import Dispatch
import QuerydJSON
import QuerydRPC

// FoundationEssentials where it exists (Linux): full Foundation loads ICU, which costs every program that
// links the client about 6 ms of start-up (measured on `queryd`, release build).
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One open stream socket to the daemon. The descriptor is a plain integer, so the value is Sendable.
///
/// Ownership: the ``QueryClient`` actor writes and eventually closes the descriptor; the reader thread
/// only reads it. The actor closes it only after the reader's stream has finished (the reader finishes
/// the stream as its very last use of the descriptor), so a read never races a close.
struct SocketConnection: Sendable {
    /// The connected socket's file descriptor.
    let fd: Int32

    /// The longest line the reader accepts; longer lines are dropped.
    static let maxLineBytes = 64 * 1024 * 1024

    /// Connects to the Unix socket at `path`. ``OpenFailure/isAbsent`` tells a daemon that is not (yet)
    /// listening from other failures.
    static func open(path: String) throws(OpenFailure) -> SocketConnection {
        let fd = socket(AF_UNIX, Platform.streamSocket, 0)
        guard fd >= 0 else { throw OpenFailure(reason: "socket: \(Platform.reason(errno))", isAbsent: false) }
        Platform.noSigPipe(fd)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            Platform.closeDescriptor(fd)
            throw OpenFailure(reason: "socket path longer than \(capacity - 1) bytes: \(path)", isAbsent: false)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Platform.closeDescriptor(fd)
            throw OpenFailure(
                reason: "connect \(path): \(Platform.reason(code))", isAbsent: code == ENOENT || code == ECONNREFUSED)
        }
        return SocketConnection(fd: fd)
    }

    /// Writes all of `bytes` (blocking; EINTR is retried). SIGPIPE is suppressed.
    func write(_ bytes: [UInt8]) throws(QueryClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress! + offset, buffer.count - offset, Platform.sendFlags)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .connectionLost("write: \(Platform.reason(errno))")
            }
            offset += written
        }
    }

    /// Shuts both directions down: the reader sees end of file and finishes its stream.
    func shutdown() {
        Platform.shutdownBoth(fd)
    }

    /// Releases the descriptor. Call only after the reader's stream has finished.
    func close() {
        Platform.closeDescriptor(fd)
    }

    /// Starts the reader thread and returns the stream of parsed messages. Lines that are not JSON
    /// and lines over ``maxLineBytes`` are skipped. The stream finishes at end of file or on a read error.
    func startReading() -> AsyncStream<JSONValue> {
        let (stream, continuation) = AsyncStream.makeStream(of: JSONValue.self)
        let fd = self.fd
        // A serial queue of its own: its blocking reads hold one thread of Dispatch's pool, as a Thread would.
        DispatchQueue(label: "queryd-client-reader").async {
            SocketConnection.readLoop(fd: fd, continuation: continuation)
        }
        return stream
    }

    private static func readLoop(fd: Int32, continuation: AsyncStream<JSONValue>.Continuation) {
        var framer = LineFramer(maxLineBytes: maxLineBytes)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let deliver: (UnsafeRawBufferPointer) -> Void = { line in
            if let value = try? JSONParser.parse(line) { continuation.yield(value) }
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            chunk.withUnsafeBytes { buffer in
                let received = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                do {
                    try framer.feed(received, deliver)
                } catch {
                    // An oversized line is dropped; the framer resumes at the next newline.
                }
            }
        }
        try? framer.finish(deliver)
        continuation.finish()
    }
}

/// Why ``SocketConnection/open(path:)`` failed.
struct OpenFailure: Error {
    /// The failing call and its errno text.
    let reason: String
    /// Nothing listens at the path yet (ENOENT or ECONNREFUSED): a daemon that is starting may appear.
    let isAbsent: Bool
}
