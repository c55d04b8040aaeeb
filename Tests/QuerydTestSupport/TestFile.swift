// Reading a whole file in a test: daemon logs, captured command output.

import Glibc

/// Reads files written by the processes under test.
public enum TestFile {
    /// The bytes of the file at `path`, or nil when it cannot be opened.
    public static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The file at `path` as UTF-8 text ("" when it cannot be opened).
    public static func text(_ path: String) -> String {
        String(decoding: bytes(path) ?? [], as: UTF8.self)
    }
}
