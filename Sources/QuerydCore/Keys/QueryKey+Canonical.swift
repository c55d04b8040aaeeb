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

    /// The canonical bytes of `elements` held in place and written with no allocation, when every
    /// element is null, a boolean, an integer or a string of plain ASCII (its own NFC form, nothing
    /// to escape) and they fit (`InlineKeyBytes.capacity`); else nil. The same bytes as
    /// `writeCanonical` for those elements.
    static func inlineCanonicalBytes(_ elements: [JSONValue]) -> InlineKeyBytes? {
        // Room for the inline bytes and one integer's 20 characters past them, so each element is
        // written before the length is checked.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: InlineKeyBytes.capacity + 21) { room in
            // Invariant: `end - start` <= capacity - 1 before each element (room for `]` after it),
            // so an element written (at most 21 bytes with its separator) stays within the room.
            let start = room.baseAddress!
            let limit = start + InlineKeyBytes.capacity - 1
            var end = start
            for element in elements {
                end.initialize(to: end == start ? UInt8(ascii: "[") : UInt8(ascii: ","))
                end += 1
                switch element {
                case .null: end = copy("null", to: end)
                case .bool(let flag): end = copy(flag ? "true" : "false", to: end)
                case .number(let number):
                    guard let value = number.int64Value else { return nil }
                    end = JSONWriter.writeInteger(value, at: end)
                case .string(let text):
                    guard let next = writePlainASCII(text, at: end, limit: limit) else { return nil }
                    end = next
                case .array, .object: return nil
                }
                guard end <= limit else { return nil }
            }
            end.initialize(to: UInt8(ascii: "]"))
            return InlineKeyBytes(UnsafeRawBufferPointer(start: start, count: end + 1 - start))
        }
    }

    /// Copies the bytes of `literal` to `target`; returns the address after them.
    private static func copy(_ literal: StaticString, to target: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        target.initialize(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return target + literal.utf8CodeUnitCount
    }

    /// Writes `text` quoted at `target` when it is plain ASCII (no control character, `"` or `\`)
    /// and ends by `limit`; returns the address after it, or nil.
    private static func writePlainASCII(
        _ text: String, at target: UnsafeMutablePointer<UInt8>, limit: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8>? {
        let written = text.utf8.withContiguousStorageIfAvailable { utf8 -> UnsafeMutablePointer<UInt8>? in
            guard utf8.count + 2 <= limit - target else { return nil }
            target.initialize(to: UInt8(ascii: "\""))
            for (offset, byte) in utf8.enumerated() {
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else {
                    return nil
                }
                (target + 1 + offset).initialize(to: byte)
            }
            (target + 1 + utf8.count).initialize(to: UInt8(ascii: "\""))
            return target + 2 + utf8.count
        }
        return written ?? nil
    }

    /// `text` in Unicode NFC, the form `String` equality compares (ASCII text is already NFC).
    private static func normalized(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }
}
