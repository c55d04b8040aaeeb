// A fast path for documents that are one flat-named object, such as a JSON-RPC envelope: the
// members are handed to the caller one by one instead of being collected into a dictionary.
//
// It accepts a subset of what `JSONParser.parse` accepts and never reports why it gave up: on
// anything unusual the caller parses the text again with `parse`, which gives the exact value or
// error. Member values are read by the same code as `parse`, with the same depth accounting.

extension JSONParser {
    /// Reads a JSON text that must be exactly one object whose member names are printable ASCII
    /// without escapes, calling `visit` with each member's name bytes and value, in text order.
    ///
    /// Returns true when the whole text was read and every call of `visit` returned true. Then
    /// `parse(bytes, maxDepth:)` would have returned `.object` of exactly the visited members,
    /// provided the visitor refused repeated names (this reader does not look for duplicates).
    /// Returns false, at the first problem, when the text is not valid JSON, is not an object,
    /// exceeds `maxDepth`, has a name with an escape or a byte outside printable ASCII, or `visit`
    /// returned false; the caller must then use `parse` to learn the outcome. The name buffer is
    /// valid only during the call.
    public static func visitObjectMembers(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int, _ visit: (UnsafeRawBufferPointer, JSONValue) -> Bool
    ) -> Bool {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        do {
            return try reader.visitObjectDocument(visit)
        } catch {
            return false
        }
    }
}

extension JSONReader {
    /// The document loop of `visitObjectMembers`: false when the fast path does not apply.
    mutating func visitObjectDocument(
        _ visit: (UnsafeRawBufferPointer, JSONValue) -> Bool
    ) throws(JSONParseError) -> Bool {
        // A BOM starts with 0xEF, which cannot begin the object: the checks below refuse it.
        skipWhitespace()
        guard pos < end, bytes[pos] == UInt8(ascii: "{") else { return false }
        try enterContainer()
        skipWhitespace()
        if pos < end, bytes[pos] == UInt8(ascii: "}") {
            pos += 1
        } else {
            while true {
                skipWhitespace()
                guard let name = plainName() else { return false }
                skipWhitespace()
                guard pos < end, bytes[pos] == UInt8(ascii: ":") else { return false }
                pos += 1
                skipWhitespace()
                guard pos < end else { return false }
                let value = try parseValue()
                guard visit(UnsafeRawBufferPointer(rebasing: bytes[name]), value) else { return false }
                skipWhitespace()
                guard pos < end else { return false }
                let c = bytes[pos]
                pos += 1
                if c == UInt8(ascii: "}") { break }
                guard c == UInt8(ascii: ",") else { return false }
                skipWhitespace()
                if pos < end, bytes[pos] == UInt8(ascii: "}") { return false }
            }
        }
        depth -= 1
        skipWhitespace()
        return pos == end
    }

    /// The bytes of a member name at `pos` made only of printable ASCII other than '"' and '\\'
    /// (so its text is its bytes), moving past its closing quote; nil for any other name.
    private mutating func plainName() -> Range<Int>? {
        guard pos < end, bytes[pos] == UInt8(ascii: "\"") else { return nil }
        let start = pos + 1
        var i = start
        while i < end {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                pos = i + 1
                return start..<i
            }
            guard c &- 0x20 < 0x5F, c != UInt8(ascii: "\\") else { return nil }
            i += 1
        }
        return nil
    }
}
