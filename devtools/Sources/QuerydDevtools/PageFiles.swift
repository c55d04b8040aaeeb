// The page's static files (Sources/QuerydDevtools/Page), read into memory at start. index.html is served with the
// token filled in where it says `__TOKEN__` (its stylesheet link and import map), so that every file the page
// loads carries the token too.

import Foundation

/// The page's files by name, with their content types.
public struct PageFiles: Sendable {
    public struct File: Sendable {
        public let bytes: [UInt8]
        public let contentType: String
    }

    private let files: [String: File]

    /// Reads every file of `directory` (not its subdirectories).
    init(directory: URL) throws {
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            guard let type = Self.contentTypes[(name as NSString).pathExtension] else { continue }
            let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
            files[name] = File(bytes: Array(bytes), contentType: type)
        }
        self.files = files
    }

    /// The files shipped with this module.
    public static func bundled() throws -> PageFiles {
        guard let directory = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try PageFiles(directory: directory)
    }

    /// The file `name` (`index.html` with `token` filled in), or nil.
    public func file(_ name: String, token: AccessToken) -> File? {
        guard let file = files[name] else { return nil }
        guard name == "index.html" else { return file }
        let text = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(of: "__TOKEN__", with: token.text)
        return File(bytes: Array(text.utf8), contentType: file.contentType)
    }

    private static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml",
    ]
}
