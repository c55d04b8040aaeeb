// The canonical bytes of a query key: its identity. Compact JSON with every string (member names
// too) in Unicode NFC, object members sorted by those bytes and numbers in their identity text,
// so two keys have the same bytes exactly when their JSON values are equal.

import QuerydJSON

extension QueryKey {
    /// Appends the canonical bytes of `elements` as one JSON array.
    static func writeCanonical(_ elements: [JSONValue], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeCanonical(element, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func writeCanonical(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null, .bool:
            value.write(to: &out)
        case .number(let number):
            number.writeIdentity(to: &out)
        case .string(let text):
            JSONWriter.writeString(normalized(text), to: &out)
        case .array(let items):
            writeCanonical(items, to: &out)
        case .object(let members):
            // Names compare as `String`s (canonical equivalence), so they sort by their NFC bytes.
            let sorted = members.map { (name: normalized($0.key), value: $0.value) }
                .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            out.append(UInt8(ascii: "{"))
            for (index, member) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(member.name, to: &out)
                out.append(UInt8(ascii: ":"))
                writeCanonical(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `text` in Unicode NFC, the form `String` equality compares (ASCII text is already NFC).
    private static func normalized(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }
}
