// Where a query key's elements are in its canonical bytes, found by scanning the bytes (no JSON
// values made): the index descends its trie by them and the write options cache picks the prefix of
// a key that decides its defaults by them.

extension QueryKey {
    /// The offset just past the element of canonical key bytes `bytes` that starts at `start` (1
    /// for the first; after a `,` for the others). The byte there is `,` when another element
    /// follows and `]` (the last byte) when the element is the last.
    static func elementEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        // Canonical bytes are compact JSON: no whitespace, so an element ends at its closing quote
        // or bracket, or, for another scalar, at the `,` or `]` after it.
        var index = start
        switch bytes[start] {
        case UInt8(ascii: "\""):
            // A string: to its closing quote, stepping over escapes.
            index += 1
            while true {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { return index + 1 }
                index += byte == UInt8(ascii: "\\") ? 2 : 1
            }
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            break
        default:
            // A number, `true`, `false` or `null`: to the `,` or `]` after it.
            while bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "]") { index += 1 }
            return index
        }
        var depth = 0
        var inString = false
        while true {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 0 { return index }
                    depth -= 1
                    if depth == 0 { return index + 1 }
                case UInt8(ascii: ","):
                    if depth == 0 { return index }
                default: break
                }
            }
            index += 1
        }
    }

    /// Whether the element whose canonical bytes start with `first` is an array or an object.
    static func isStructured(first: UInt8) -> Bool {
        first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
    }
}
