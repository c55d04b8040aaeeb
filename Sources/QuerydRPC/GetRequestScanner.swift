// Recognises the commonest request line, `{"jsonrpc":"2.0","id":…,"method":"query.get",
// "params":{"key":[…]}}`, in one pass over its bytes, without building JSON values or strings.
//
// Only a plain subset is accepted: members in any order, each once, with nothing else; an id that
// is an integer or a string of printable ASCII without escapes; a key whose strings are the same
// kind of string, whose numbers are integers (at most 18 digits, no `-0`), and whose objects have
// plain names in ascending byte order. For such a line the id's bytes are exactly what the writer
// echoes, and the key's bytes with whitespace dropped are exactly its canonical JSON (which for
// this subset is also `QueryKey`'s identity). Any other
// line is left to the general decoder, which handles (and answers) it as before.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the parts of a recognised `query.get` line are.
public struct GetRequestLine: Sendable, Equatable {
    /// The id's JSON text: exactly what `RPCID.write` writes for the id.
    public let id: Range<Int>
    /// The key array's JSON text.
    public let key: Range<Int>
    /// True when the key's text has no whitespace, so it is its canonical JSON as it stands.
    public let keyIsCompact: Bool
    /// True when the key's text is exactly the known key given to `scan` (and was not scanned
    /// again).
    public let isKnownKey: Bool

    /// Appends the key's canonical JSON (as `JSONValue.write` writes it) to `out`: its text in
    /// `line` (the scanned line) without the whitespace between tokens.
    public func appendCanonicalKey(from line: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let text = UnsafeRawBufferPointer(rebasing: line[key])
        if keyIsCompact {
            out.append(contentsOf: text.assumingMemoryBound(to: UInt8.self))
            return
        }
        // Strings in the plain subset have no escapes, so every `"` opens or closes one.
        var inString = false
        for byte in text {
            if byte == UInt8(ascii: "\"") { inString.toggle() }
            if !inString, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            out.append(byte)
        }
    }
}

/// The single-pass scanner of `query.get` request lines (the cache-hit fast path).
public enum GetRequestScanner {
    /// Scans `line`: returns where its id and key are when it is a `query.get` request in the
    /// plain subset, nil otherwise. Nesting deeper than `maxDepth` (counted as `JSONParser`
    /// counts it, over the whole line) also returns nil.
    ///
    /// `knownKey` is the text of a key this scanner accepted before, under the same `maxDepth`
    /// and with no whitespace (a client reading one key again and again sends it alike): a compact
    /// line whose key is exactly those bytes is accepted without scanning the key again, and says
    /// so in `isKnownKey`.
    public static func scan(
        _ line: UnsafeRawBufferPointer, maxDepth: Int, knownKey: UnsafeRawBufferPointer? = nil
    ) -> GetRequestLine? {
        guard let base = line.baseAddress, !line.isEmpty else { return nil }
        var cursor = ScanCursor(
            base: base.assumingMemoryBound(to: UInt8.self), count: line.count, maxDepth: maxDepth, knownKey: knownKey)
        return cursor.scanRequest()
    }
}

/// Whether a scanned value may have whitespace between its tokens: a `query.get` key may (its
/// canonical text is then made without it), a `query.set` line's key and data may not (whitespace
/// there fails the scan at once, as the line takes the general path anyway). Two scanners of
/// values are made from one: the compact one skips no whitespace.
protocol ValueLayout {
    static var allowsWhitespace: Bool { get }
}

/// Whitespace allowed between a value's tokens (and noted in `ScanCursor.keyWhitespace`).
enum SpacedLayout: ValueLayout {
    static var allowsWhitespace: Bool { true }
}

/// No whitespace in the value.
enum CompactLayout: ValueLayout {
    static var allowsWhitespace: Bool { false }
}

/// The read position in a line being scanned (of `query.get` and `query.set` lines). Every read
/// checks `index < count`.
struct ScanCursor {
    // Safety: `base` points at `count` readable bytes for the whole scan (the caller's buffer),
    // and every access below is guarded by `index < count`.
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    /// A compact key accepted before (see `GetRequestScanner.scan`).
    let knownKey: UnsafeRawBufferPointer?
    var index = 0
    /// Whitespace was skipped inside the key.
    var keyWhitespace = false
    /// Objects whose names do not ascend are accepted (and noted in `sawUnorderedMembers`) rather
    /// than refused: a `query.set`'s data is reordered into its canonical encoding.
    var acceptsUnorderedMembers = false
    var sawUnorderedMembers = false
    /// The compact envelope was read up to a method other than `query.get`, and the id found
    /// there (the cursor is then at the method's name).
    var namesOtherMethod = false
    var otherMethodID: Range<Int> = 0..<0

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    var peek: UInt8? { index < count ? base[index] : nil }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count {
            switch base[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Skips whitespace inside the key, noting that there was some, where `Layout` allows it.
    @inline(__always)
    private mutating func skipKeyWhitespace<Layout: ValueLayout>(_: Layout.Type) {
        guard Layout.allowsWhitespace else { return }
        let start = index
        skipWhitespace()
        if index != start { keyWhitespace = true }
    }

    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        guard index < count, base[index] == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `literal` when the next bytes are exactly it. A literal of 8 bytes or more is
    /// compared eight bytes at a time (the last word overlapping the one before).
    @inline(__always)
    mutating func consume(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard count - index >= length else { return false }
        let text = UnsafeRawPointer(literal.utf8Start)
        // Safety: `length` bytes are readable at both `base + index` (checked above) and `text`.
        let here = UnsafeRawPointer(base + index)
        if length >= 8 {
            var offset = 0
            while offset + 8 < length {
                guard
                    here.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == text.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            guard
                here.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
                    == text.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            else { return false }
        } else {
            for offset in 0..<length
            where here.load(fromByteOffset: offset, as: UInt8.self) != text.load(fromByteOffset: offset, as: UInt8.self)
            {
                return false
            }
        }
        index += length
        return true
    }

    // MARK: - Envelope

    mutating func scanRequest() -> GetRequestLine? {
        guard maxDepth >= 3 else { return nil }
        if let found = scanCompactRequest() { return found }
        // The compact envelope naming another method: no layout makes that line a `query.get`
        // (`scanAnyRequest` wants this method and each member once).
        if namesOtherMethod { return nil }
        index = 0
        keyWhitespace = false
        return scanAnyRequest()
    }

    /// The layout most clients write, compact with the members in the usual order, checked a
    /// word at a time; nil for any other layout (which `scanAnyRequest` then reads).
    private mutating func scanCompactRequest() -> GetRequestLine? {
        guard consume(#"{"jsonrpc":"2.0","id":"#) else { return nil }
        let idStart = index
        if peek == Self.quote {
            guard plainString() else { return nil }
        } else {
            guard integer() else { return nil }
        }
        let id = idStart..<index
        guard consume(#","method":"query.get","params":{"key":["#) else {
            // Not this layout; but is it another method's line? (Checked only now: a line of this
            // layout is read with one comparison.) Then the cursor is left at the method's name.
            if consume(#","method":""#), !consume(#"query.get""#) {
                namesOtherMethod = true
                otherMethodID = id
            }
            return nil
        }
        let keyStart = index - 1
        if let known = isKnownKey(at: keyStart) {
            return GetRequestLine(id: id, key: known, keyIsCompact: true, isKnownKey: true)
        }
        skipWhitespace()
        guard peek != UInt8(ascii: "]") else { return nil }
        index = keyStart
        guard array(depth: 3, SpacedLayout.self) else { return nil }
        let key = keyStart..<index
        guard consume("}}"), index == count else { return nil }
        return GetRequestLine(id: id, key: key, keyIsCompact: !keyWhitespace, isKnownKey: false)
    }

    /// The key's range when the rest of the line from `start` is the known key and `}}`.
    private func isKnownKey(at start: Int) -> Range<Int>? {
        guard let known = knownKey, let knownBase = known.baseAddress, count - start == known.count + 2,
            base[count - 2] == UInt8(ascii: "}"), base[count - 1] == UInt8(ascii: "}"),
            memcmp(base + start, knownBase, known.count) == 0
        else { return nil }
        return start..<(start + known.count)
    }

    /// Any layout: members in any order, whitespace between tokens.
    private mutating func scanAnyRequest() -> GetRequestLine? {
        var seen: UInt8 = 0
        var id: Range<Int>?
        var key: Range<Int>?
        skipWhitespace()
        guard consume(UInt8(ascii: "{")) else { return nil }
        repeat {
            skipWhitespace()
            // The member is told by the first letter of its name.
            guard count - index > 2 else { return nil }
            let bit: UInt8
            switch base[index + 1] {
            case UInt8(ascii: "j"):
                bit = 1
                guard consume(#""jsonrpc""#), colon(), consume(#""2.0""#) else { return nil }
            case UInt8(ascii: "m"):
                bit = 2
                guard consume(#""method""#), colon(), consume(#""query.get""#) else { return nil }
            case UInt8(ascii: "i"):
                bit = 4
                guard consume(#""id""#), colon() else { return nil }
                let start = index
                if peek == Self.quote {
                    guard plainString() else { return nil }
                } else {
                    guard integer() else { return nil }
                }
                id = start..<index
            case UInt8(ascii: "p"):
                bit = 8
                guard consume(#""params""#), colon(), let range = params() else { return nil }
                key = range
            default:
                return nil
            }
            guard seen & bit == 0 else { return nil }
            seen |= bit
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")), seen == 15 else { return nil }
        skipWhitespace()
        guard index == count, let id, let key else { return nil }
        return GetRequestLine(id: id, key: key, keyIsCompact: !keyWhitespace, isKnownKey: false)
    }

    /// `:` between a member name and its value, with whitespace either side.
    @inline(__always)
    private mutating func colon() -> Bool {
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { return false }
        skipWhitespace()
        return true
    }

    /// `{"key":[…]}`; returns the key's range.
    private mutating func params() -> Range<Int>? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        guard consume(#""key""#), colon() else { return nil }
        let start = index
        // A key must be a non-empty array: `[]` is left to the general path, which refuses it.
        guard consume(UInt8(ascii: "[")) else { return nil }
        skipWhitespace()
        guard peek != UInt8(ascii: "]") else { return nil }
        index = start
        guard array(depth: 3, SpacedLayout.self) else { return nil }
        let key = start..<index
        skipWhitespace()
        return consume(UInt8(ascii: "}")) ? key : nil
    }

    // MARK: - Key values

    mutating func value<Layout: ValueLayout>(depth: Int, _ layout: Layout.Type) -> Bool {
        guard let byte = peek else { return false }
        switch byte {
        case Self.quote: return plainString()
        case UInt8(ascii: "["): return array(depth: depth + 1, layout)
        case UInt8(ascii: "{"): return object(depth: depth + 1, layout)
        case UInt8(ascii: "t"): return consume("true")
        case UInt8(ascii: "f"): return consume("false")
        case UInt8(ascii: "n"): return consume("null")
        default: return integer()
        }
    }

    /// An array at nesting level `depth`, with whitespace between tokens where `Layout` allows it.
    mutating func array<Layout: ValueLayout>(depth: Int, _ layout: Layout.Type) -> Bool {
        guard depth <= maxDepth, consume(UInt8(ascii: "[")) else { return false }
        skipKeyWhitespace(layout)
        if consume(UInt8(ascii: "]")) { return true }
        repeat {
            skipKeyWhitespace(layout)
            guard value(depth: depth, layout) else { return false }
            skipKeyWhitespace(layout)
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]"))
    }

    /// An object at nesting level `depth` whose plain names ascend strictly (the canonical
    /// member order; see `acceptsUnorderedMembers`).
    private mutating func object<Layout: ValueLayout>(depth: Int, _ layout: Layout.Type) -> Bool {
        guard depth <= maxDepth, consume(UInt8(ascii: "{")) else { return false }
        skipKeyWhitespace(layout)
        if consume(UInt8(ascii: "}")) { return true }
        var previous: Range<Int>?
        repeat {
            skipKeyWhitespace(layout)
            let start = index
            guard plainString() else { return false }
            let name = start + 1..<index - 1
            if let previous, !precedes(previous, name) {
                guard acceptsUnorderedMembers else { return false }
                sawUnorderedMembers = true
            }
            previous = name
            skipKeyWhitespace(layout)
            guard consume(UInt8(ascii: ":")) else { return false }
            skipKeyWhitespace(layout)
            guard value(depth: depth, layout) else { return false }
            skipKeyWhitespace(layout)
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    /// True when the bytes in `a` sort strictly before those in `b`.
    func precedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let shared = min(a.count, b.count)
        for offset in 0..<shared {
            let left = base[a.lowerBound + offset]
            let right = base[b.lowerBound + offset]
            if left != right { return left < right }
        }
        return a.count < b.count
    }

    // MARK: - Scalars

    /// A string of bytes 0x20...0x7F other than `"` and `\` (written back unchanged by the JSON writer).
    @inline(__always)
    mutating func plainString() -> Bool {
        guard consume(Self.quote) else { return false }
        // A word at a time (the first alone, so a short string takes one; then two per round): the
        // first byte that ends the string or leaves the plain set is found from the word's stops,
        // and the string is plain when that byte is the closing `"`. (The sums cannot overflow, as
        // `index <= count`.)
        var at = index
        if count &- at >= 8 {
            var stops = wordStops(at: at)
            if stops == 0 {
                at &+= 8
                while count &- at >= 16 {
                    stops = wordStops(at: at)
                    if stops != 0 { break }
                    stops = wordStops(at: at &+ 8)
                    if stops != 0 {
                        at &+= 8
                        break
                    }
                    at &+= 16
                }
                if stops == 0, count &- at >= 8 {
                    stops = wordStops(at: at)
                    if stops == 0 { at &+= 8 }
                }
            }
            if stops != 0 {
                index = at &+ stops.trailingZeroBitCount &>> 3
                return consume(Self.quote)
            }
        }
        index = at
        // The last bytes of the line, one at a time.
        while index < count {
            let byte = base[index]
            if byte == Self.quote {
                index += 1
                return true
            }
            guard byte >= 0x20, byte < 0x80, byte != Self.backslash else { return false }
            index += 1
        }
        return false
    }

    /// `plainStringStops` of the eight bytes at `at`.
    @inline(__always)
    private func wordStops(at: Int) -> UInt64 {
        // Safety: the caller checks that the eight bytes from `at` are within `count`.
        ScanCursor.plainStringStops(
            UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: at, as: UInt64.self)))
    }

    /// The high bit of each of the eight bytes of `word` (the first in memory in its low byte)
    /// that is `"`, `\`, below 0x20 or above 0x7F, and perhaps of bytes after such a byte; so the
    /// lowest bit set marks exactly the first such byte, and none is set when there is none.
    /// (`x - 0x01…01 & ~x` sets a byte's high bit for a zero byte of `x` and, through the borrow,
    /// perhaps for bytes after it, never for a byte before it; `x - 0x20…20 & ~x` likewise for a
    /// byte below 0x20.)
    @inline(__always)
    static func plainStringStops(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(quote))
        let backslashes = word ^ (ones &* UInt64(backslash))
        let zeroQuote = (quotes &- ones) & ~quotes
        let zeroBackslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control | word) & (ones &* 0x80)
    }

    /// How many of the eight bytes of `word` (the first in memory in its low byte) are ASCII
    /// digits before the first that is not. A byte below 0x80 is at least `0` when adding 0x50 sets
    /// its high bit, and above `9` when adding 0x46 does (neither sum carries into the next byte).
    @inline(__always)
    static func leadingDigits(_ word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        let low = word & ~high
        let digits = (low &+ ones &* 0x50) & ~(low &+ ones &* 0x46) & ~word & high
        return (~digits & high).trailingZeroBitCount / 8
    }

    /// An integer of at most 18 digits without leading zeros, other than `-0` (so it is an Int64
    /// and written back unchanged); a fraction or exponent after it fails.
    @inline(__always)
    mutating func integer() -> Bool {
        let negative = consume(UInt8(ascii: "-"))
        let start = index
        // Eight bytes at a time while they are all digits; the rest byte by byte.
        while count - index >= 8 {
            // Safety: the eight bytes from `index` are within `count`.
            let run = ScanCursor.leadingDigits(
                UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
            index += run
            if run < 8 { break }
        }
        while index < count, base[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        let digits = index - start
        guard digits > 0, digits <= 18 else { return false }
        if base[start] == UInt8(ascii: "0"), digits > 1 || negative { return false }
        if let next = peek, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            return false
        }
        return true
    }
}
