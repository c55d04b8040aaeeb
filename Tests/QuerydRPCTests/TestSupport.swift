// Shared helpers for the QuerydRPC tests: framer drivers, the framing oracle, and random edits
// of request lines.

import QuerydRPC
import QuerydTestSupport

/// What the framer produced, in order.
enum FrameEvent: Hashable, CustomStringConvertible {
    case line(String)
    case tooLong

    var description: String {
        switch self {
        case .line(let text): return "line(\(text.debugDescription))"
        case .tooLong: return "tooLong"
        }
    }
}

/// Feeds `chunks` to a fresh framer, carrying on after every error, then finishes the stream.
func frameEvents(_ chunks: [[UInt8]], maxLineBytes: Int) -> [FrameEvent] {
    var framer = LineFramer(maxLineBytes: maxLineBytes)
    var events: [FrameEvent] = []
    let collect: (UnsafeRawBufferPointer) -> Void = { events.append(.line(String(decoding: $0, as: UTF8.self))) }
    for chunk in chunks {
        do {
            try feed(&framer, chunk, collect)
        } catch {
            events.append(.tooLong)
        }
    }
    while true {
        do {
            try framer.finish(collect)
            break
        } catch {
            events.append(.tooLong)
        }
    }
    return events
}

/// Cuts `bytes` at the given offsets (sorted, within bounds).
func split(_ bytes: [UInt8], at cuts: [Int]) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var start = 0
    for cut in cuts {
        chunks.append(Array(bytes[start..<cut]))
        start = cut
    }
    chunks.append(Array(bytes[start...]))
    return chunks
}

/// The framing rules restated naively over the whole input, as the oracle for the framer.
func referenceEvents(_ bytes: [UInt8], maxLineBytes: Int) -> [FrameEvent] {
    var events: [FrameEvent] = []
    for segment in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        var line = Array(segment)
        if line.last == 0x0D { line.removeLast() }
        if line.count > maxLineBytes {
            events.append(.tooLong)
        } else if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            events.append(.line(String(decoding: line, as: UTF8.self)))
        }
    }
    return events
}

/// Feeds an array to the framer (the framer itself takes a raw buffer).
func feed(
    _ framer: inout LineFramer, _ bytes: [UInt8], _ onLine: (UnsafeRawBufferPointer) -> Void
) throws(LineFramerError) {
    let outcome = bytes.withUnsafeBytes { buffer in
        Result { () throws(LineFramerError) in try framer.feed(buffer, onLine) }
    }
    try outcome.get()
}

/// Feeds a string's UTF-8 bytes to the framer.
func feed(
    _ framer: inout LineFramer, _ text: String, _ onLine: (UnsafeRawBufferPointer) -> Void
) throws(LineFramerError) {
    try feed(&framer, Array(text.utf8), onLine)
}

/// `base` with `edits` random edits, each an insertion of one of `pieces`, a removal of a byte, or
/// a byte replaced by a piece's first byte (the scanners' random tests).
func randomlyEdited(
    _ base: [UInt8], pieces: [String], edits: ClosedRange<Int>, using random: inout SeededGenerator
) -> [UInt8] {
    var bytes = base
    for _ in 0..<Int.random(in: edits, using: &random) {
        let at = Int.random(in: 0...bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes.insert(contentsOf: pieces.randomElement(using: &random)!.utf8, at: at)
        case 1: if at < bytes.count { bytes.remove(at: at) }
        default:
            if at < bytes.count { bytes[at] = pieces.randomElement(using: &random)!.utf8.first! }
        }
    }
    return bytes
}
