// Runs every entry of the bad-input catalogue against a fresh daemon: the exact reply lines, then
// proof the server is still healthy (the same connection, unless the entry closes it, and a new
// one answer `server.ping`, and the process is still running).

import Glibc
import Testing

/// One hostile input and what the daemon must answer.
struct HostileInput: Sendable, CustomTestStringConvertible {
    /// What the connection does after the input.
    enum Ending: Sendable {
        /// It stays open: a following ping is answered right after the replies.
        case open
        /// The daemon closes it after the replies.
        case closed
        /// The client half-closes after sending; the daemon answers, then closes.
        case halfClose
    }

    /// How the input's bytes are written in the table.
    enum Input: Sendable {
        /// The text plus a newline.
        case line(String)
        /// The text, no newline.
        case text(String)
        /// The text with `%HH` standing for the byte 0xHH (for control and non-ASCII bytes).
        case escaped(String)
        /// One byte repeated.
        case repeated(UInt8, count: Int)
    }

    let number: Int
    let title: String
    let ending: Ending
    let input: Input
    /// The exact lines the daemon writes, in order.
    let replies: [String]

    init(_ number: Int, _ title: String, _ ending: Ending, _ input: Input, replies: [String]) {
        self.number = number
        self.title = title
        self.ending = ending
        self.input = input
        self.replies = replies
    }

    var testDescription: String { "#\(number) \(title)" }

    /// The bytes to send.
    var bytes: [UInt8] {
        switch input {
        case .line(let text): return Array(text.utf8) + [0x0A]
        case .text(let text): return Array(text.utf8)
        case .repeated(let byte, let count): return [UInt8](repeating: byte, count: count)
        case .escaped(let text):
            var out: [UInt8] = []
            var utf8 = Array(text.utf8)[...]
            while let byte = utf8.popFirst() {
                if byte == UInt8(ascii: "%"),
                    let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                {
                    out.append(value)
                    utf8 = utf8.dropFirst(2)
                } else {
                    out.append(byte)
                }
            }
            return out
        }
    }

    // Builders of the exact reply lines (members in the order the daemon writes them).

    static func parseError(_ offset: Int, _ reason: String) -> String {
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"#
            + #"{"hint":"send one JSON-RPC message per line","offset":\#(offset),"reason":"\#(reason)"}}}"#
    }

    static func invalidRequest(_ id: String, _ reason: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32600,"message":"Invalid Request","#
            + #""data":{"reason":"\#(reason)"}}}"#
    }

    static func methodNotFound(_ id: String, _ method: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32601,"message":"Method not found","#
            + #""data":{"method":"\#(method)"}}}"#
    }

    static func invalidParams(_ id: String, _ field: String, _ reason: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32602,"message":"Invalid params","data":"#
            + #"{"field":"\#(field)","reason":"\#(reason)"}}}"#
    }

    static func result(_ id: String, _ result: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"result":\#(result)}"#
    }
}

@Suite("Hostile input catalogue")
struct HostileInputCatalogueTests {
    static let pingAfter = #"{"jsonrpc":"2.0","id":"after","method":"server.ping"}"#
    static let pongAfter = #"{"jsonrpc":"2.0","id":"after","result":{}}"#

    @Test func theCatalogueHasAtLeastFortyDistinctEntries() {
        let entries = HostileInput.catalogue
        #expect(entries.count >= 40)
        #expect(Set(entries.map(\.title)).count == entries.count)
        #expect(Set(entries.map(\.number)).count >= 40)
    }

    /// `line` without the `"epoch":"…",` members of its states: the epoch is random per daemon
    /// (other tests check it), the rest of each line is compared byte for byte.
    static func withoutEpoch(_ line: String) -> String {
        var rest = Substring(line)
        var output = ""
        while let start = rest.firstRange(of: #""epoch":""#) {
            output += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstRange(of: #"","#) else {
                return output + rest[start.lowerBound...]
            }
            rest = rest[end.upperBound...]
        }
        return output + rest
    }

    @Test(arguments: HostileInput.catalogue)
    func hostileInput(_ entry: HostileInput) throws {
        let daemon = try DaemonProcess(flags: HostileInput.flags)
        let client = try daemon.connect()
        try client.sendRaw(entry.bytes)
        var lines: [String] = []
        switch entry.ending {
        case .open:
            try client.send(Self.pingAfter)
            while true {
                let line = try client.readLine()
                if line == Self.pongAfter { break }
                lines.append(line)
            }
        case .closed, .halfClose:
            if entry.ending == .halfClose { client.shutdownWrite() }
            for _ in entry.replies { lines.append(try client.readLine()) }
            try client.expectEndOfStream()
        }
        #expect(lines.map(Self.withoutEpoch) == entry.replies)
        // The daemon is still healthy for everyone.
        let other = try daemon.connect()
        try other.expectHealthy()
        #expect(daemon.isRunning)
        #expect(try daemon.stop() == .exited(0), "\(daemon.logTail())")
    }
}
