// Where the daemon's log lines go: stderr, or a file given with `--log-file` that SIGHUP reopens
// (so a rotated log is let go and a new one created at the same path).

import Glibc
import Logging
import Synchronization

/// The log's file descriptor; `reopen()` swaps it for a fresh open of the same path.
final class LogFile: Sendable {
    /// The file path, or nil for stderr.
    let path: String?
    private let descriptor: Atomic<Int32>

    /// Logs to stderr.
    init() {
        path = nil
        descriptor = Atomic(STDERR_FILENO)
    }

    /// Logs to `path` (appending, created 0600 when absent).
    init(path: String) throws {
        let fd = LogFile.open(path)
        guard fd >= 0 else { throw Refusal("cannot open log file \(path): \(String(cString: strerror(errno)))") }
        self.path = path
        descriptor = Atomic(fd)
    }

    /// Opens the path again and closes the previous descriptor; keeps the old one if the open fails.
    /// Returns the error text on failure.
    func reopen() -> String? {
        guard let path else { return nil }
        let fd = LogFile.open(path)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        let old = descriptor.exchange(fd, ordering: .acquiringAndReleasing)
        Glibc.close(old)
        return nil
    }

    /// Appends one line.
    func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        let fd = descriptor.load(ordering: .acquiring)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    private static func open(_ path: String) -> Int32 {
        Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    }
}

/// A swift-log handler writing `<time> <level> <label> : <metadata> <message>` lines to a `LogFile`.
/// Control characters in messages are escaped, so peer input cannot drive an operator's terminal.
struct LogFileHandler: LogHandler {
    let label: String
    let file: LogFile
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = LogFileHandler.sanitized(event.message.description)
        file.write(
            "\(LogFileHandler.timestamp()) \(event.level) \(label) :\(fields.isEmpty ? "" : " " + fields) \(text)")
    }

    /// The text with control characters (other than none) written as `\u{..}` escapes.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Local time as `2024-01-31T12:00:00+0000`.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
