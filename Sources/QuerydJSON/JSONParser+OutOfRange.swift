// Recovery from a number beyond a double's range (such as 1e400): the rest of the text is still
// read, with `null` in the number's place, so a caller can answer the message it belongs to with
// an error naming the number's path instead of refusing the whole text.

extension JSONParseError {
    /// The message of a number outside the IEEE 754 double range.
    public static let outOfRangeMessage = "number out of range (I-JSON limits numbers to IEEE 754 doubles)"

    /// Whether the text was refused for a number outside the IEEE 754 double range.
    public var isNumberOutOfRange: Bool { message == Self.outOfRangeMessage }
}

extension JSONParser {
    /// Parses a text that `parse` refused with `error`, reading each number outside the double
    /// range as `null`. Returns the value and the path of the first such number (member names and
    /// array indices, outermost first), or nil when `error` is not about such a number, when the
    /// text has another error, or when it has more than `limit` such numbers (each is found by one
    /// more parse).
    public static func parseReplacingOutOfRangeNumbers(
        _ bytes: UnsafeRawBufferPointer, refusedWith error: JSONParseError, maxDepth: Int, limit: Int = 8
    ) -> (value: JSONValue, path: [String])? {
        guard error.isNumberOutOfRange else { return nil }
        var text = Array(bytes)
        let path = valuePath(at: error.offset, in: bytes)
        var offset = error.offset
        for _ in 0..<limit {
            // "null" and spaces in place of the number (at least 5 bytes, such as 1e309), so the
            // offsets of everything else stay the same.
            var end = offset + 1
            while end < text.count, isNumberByte(text[end]) { end += 1 }
            guard end - offset >= 4 else { return nil }
            text.replaceSubrange(
                offset..<end, with: Array("null".utf8) + Array(repeating: 0x20, count: end - offset - 4))
            do {
                return (try parse(text, maxDepth: maxDepth), path)
            } catch  where error.isNumberOutOfRange {
                offset = error.offset
            } catch {
                return nil
            }
        }
        return nil
    }

    private static func isNumberByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
            || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
    }

    /// The path of the value starting at `offset` in a text whose bytes before `offset` are valid
    /// JSON so far: the member names and array indices (as decimal text) leading to it.
    static func valuePath(at offset: Int, in bytes: UnsafeRawBufferPointer) -> [String] {
        // One entry per open container: an array's current index, or an object's current member
        // name (nil while a name is expected).
        var path: [(index: Int?, name: String?)] = []
        var i = 0
        while i < offset {
            switch bytes[i] {
            case UInt8(ascii: "["):
                path.append((0, nil))
            case UInt8(ascii: "{"):
                path.append((nil, nil))
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                path.removeLast()
            case UInt8(ascii: ","):
                if let index = path.last?.index {
                    path[path.count - 1].index = index + 1
                } else {
                    path[path.count - 1].name = nil
                }
            case UInt8(ascii: "\""):
                var close = i + 1
                while bytes[close] != UInt8(ascii: "\"") { close += bytes[close] == UInt8(ascii: "\\") ? 2 : 1 }
                if let last = path.last, last.index == nil, last.name == nil,
                    case .string(let name)? = try? parse(UnsafeRawBufferPointer(rebasing: bytes[i...close]))
                {
                    path[path.count - 1].name = name
                }
                i = close
            default:
                break
            }
            i += 1
        }
        return path.map { $0.index.map(String.init) ?? $0.name ?? "" }
    }
}
