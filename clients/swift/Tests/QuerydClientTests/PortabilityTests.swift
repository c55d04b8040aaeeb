// The client must build on Apple platforms too: no source of the client or of the two modules it depends on
// (QuerydJSON, QuerydRPC) imports Glibc, or names it, outside an `#if canImport(Glibc)` branch.

import Foundation
import Testing

@Suite struct PortabilityTests {
    /// The directories of the client's module and its dependencies, from this file's location.
    private static let sourceDirectories: [URL] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ["clients/swift/Sources/QuerydClient", "Sources/QuerydJSON", "Sources/QuerydRPC"].map {
            root.appendingPathComponent($0)
        }
    }()

    @Test func glibcIsOnlyUsedBehindCanImport() throws {
        var checked = 0
        for directory in PortabilityTests.sourceDirectories {
            let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                checked += 1
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                for (index, line) in lines.enumerated() {
                    if line.hasSuffix("import Glibc") {
                        #expect(index > 0 && lines[index - 1] == "#if canImport(Glibc)", "\(file.path):\(index + 1)")
                    }
                    #expect(!line.contains("Glibc."), "\(file.path):\(index + 1) names Glibc")
                }
            }
        }
        #expect(checked > 30)
    }
}
