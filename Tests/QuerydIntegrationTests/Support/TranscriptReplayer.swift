// Parses and replays protocol/conformance/*.jsonl transcripts against a real daemon.
// The file format is described in protocol/conformance/README.md.

import Glibc
import QuerydJSON
import QuerydTestSupport

/// One parsed transcript file.
struct Transcript: CustomStringConvertible {
    /// One instruction of a transcript, tagged with its connection and source line.
    enum Step {
        /// Send this text (after variable substitution) as one line.
        case send(String)
        /// Read one line and compare it with this value.
        case expect(JSONValue)
        /// Read as many lines as there are values and match them in any order.
        case expectAnyOrder([JSONValue])
        /// Assert that nothing arrives (proven by a ping reply).
        case silence
        /// Close the connection.
        case close
    }

    /// The file name, e.g. `001-hello-and-ping.jsonl`.
    let name: String
    /// Extra daemon flags from the `! flags:` line.
    let flags: [String]
    /// The steps in order: (connection name, 1-based line number, step).
    let steps: [(connection: String, line: Int, step: Step)]

    var description: String { name }

    /// Parses `text`; throws with the offending line number on a malformed line.
    init(name: String, text: String) throws {
        self.name = name
        var flags: [String] = []
        var steps: [(connection: String, line: Int, step: Step)] = []
        var connection = "a"
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("! flags:") {
                guard number == 1 else { throw IntegrationError("\(name):\(number): `! flags:` must be line 1") }
                flags = line.dropFirst("! flags:".count).split(separator: " ").map(String.init)
            } else if line.hasPrefix("@ ") {
                connection = String(line.dropFirst(2)).trimmingSpaces
            } else if line.hasPrefix("> ") {
                steps.append((connection, number, .send(String(line.dropFirst(2)))))
            } else if line.hasPrefix("<~ ") {
                let value: JSONValue
                do {
                    value = try JSONParser.parse(String(line.dropFirst(3)))
                } catch {
                    throw IntegrationError("\(name):\(number): expected line is not JSON: \(error)")
                }
                if let last = steps.last, last.connection == connection, case .expectAnyOrder(let group) = last.step {
                    steps[steps.count - 1] = (connection, last.line, .expectAnyOrder(group + [value]))
                } else {
                    steps.append((connection, number, .expectAnyOrder([value])))
                }
            } else if line.hasPrefix("< ") {
                do {
                    steps.append((connection, number, .expect(try JSONParser.parse(String(line.dropFirst(2))))))
                } catch {
                    throw IntegrationError("\(name):\(number): expected line is not JSON: \(error)")
                }
            } else if line == ". silence" {
                steps.append((connection, number, .silence))
            } else if line == ". close" {
                steps.append((connection, number, .close))
            } else {
                throw IntegrationError("\(name):\(number): unknown line kind: \(line)")
            }
        }
        self.flags = flags
        self.steps = steps
    }

    /// Every `NNN-*.jsonl` file in `directory`, sorted by name.
    static func files(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(".jsonl") { names.append(name) }
        }
        return names.sorted()
    }

    /// The folder holding the transcripts: `<package root>/protocol/conformance`.
    static var directory: String { QuerydBinary.packageRoot + "/protocol/conformance" }

    /// Loads `name` from `directory`.
    static func load(_ name: String, from directory: String = Transcript.directory) throws -> Transcript {
        let path = directory + "/" + name
        guard let file = fopen(path, "r") else { throw IntegrationError("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return try Transcript(name: name, text: String(decoding: bytes, as: UTF8.self))
    }
}

/// Replays a transcript: connections open lazily on first use; at the end every open
/// connection must be silent (no unexpected trailing output).
struct TranscriptReplayer {
    /// Runs `transcript` against a fresh daemon started with the transcript's flags.
    static func replay(_ transcript: Transcript) throws {
        let daemon = try DaemonProcess(flags: transcript.flags)
        var connections: [String: LineClient] = [:]
        var order: [String] = []
        var matcher = JSONMatcher()
        func fail(_ line: Int, _ message: String) -> IntegrationError {
            IntegrationError("\(transcript.name):\(line): \(message)\n--- daemon log ---\n\(daemon.logTail())")
        }
        for (name, line, step) in transcript.steps {
            let client: LineClient
            if let open = connections[name] {
                client = open
            } else {
                client = try daemon.connect()
                connections[name] = client
                order.append(name)
            }
            do {
                switch step {
                case .send(let text):
                    try client.send(substitute(text, matcher.variables))
                case .expect(let expected):
                    let raw = try client.readLine()
                    let actual: JSONValue
                    do {
                        actual = try JSONParser.parse(raw)
                    } catch {
                        throw fail(line, "@\(name) received a line that is not JSON: \(raw)")
                    }
                    if let problem = matcher.mismatch(expected: expected, actual: actual, unorderedTopLevel: true) {
                        throw fail(
                            line,
                            "@\(name) \(problem)\n  expected: \(expected.encodedString)\n  actual:   \(raw)")
                    }
                case .expectAnyOrder(let group):
                    var received: [JSONValue] = []
                    for _ in group {
                        let raw = try client.readLine()
                        do {
                            received.append(try JSONParser.parse(raw))
                        } catch {
                            throw fail(line, "@\(name) received a line that is not JSON: \(raw)")
                        }
                    }
                    let want = JSONValue.array(group)
                    let got = JSONValue.array(received)
                    if let problem = matcher.mismatch(expected: want, actual: got, unorderedTopLevel: true) {
                        throw fail(
                            line,
                            "@\(name) (lines in any order) \(problem)\n  expected: \(want.encodedString)\n"
                                + "  actual:   \(got.encodedString)")
                    }
                case .silence:
                    try client.expectSilence()
                case .close:
                    client.close()
                    connections[name] = nil
                    order.removeAll { $0 == name }
                }
            } catch let error as IntegrationError where !error.description.contains("--- daemon log ---") {
                throw fail(line, "@\(name) \(error.description)")
            }
        }
        for name in order {
            do {
                try connections[name]!.expectSilence()
            } catch {
                throw IntegrationError(
                    "\(transcript.name): at the end, @\(name): \(error)\n--- daemon log ---\n\(daemon.logTail())")
            }
        }
        let status = try daemon.stop()
        if status != .exited(0) {
            throw IntegrationError("\(transcript.name): daemon ended with \(status)\n\(daemon.logTail())")
        }
    }

    /// Replaces `$name` (bare, outside quotes) by the captured value's JSON text.
    static func substitute(_ text: String, _ variables: [String: JSONValue]) -> String {
        guard !variables.isEmpty, text.contains("$") else { return text }
        var output = ""
        var characters = Substring(text)
        while let dollar = characters.firstIndex(of: "$") {
            output += characters[..<dollar]
            let rest = characters[characters.index(after: dollar)...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty, let value = variables[String(name)] {
                output += value.encodedString
                characters = rest[name.endIndex...]
            } else {
                output += "$"
                characters = rest
            }
        }
        return output + characters
    }
}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
