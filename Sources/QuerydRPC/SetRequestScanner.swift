// Recognises a plain `query.set` line, `{"jsonrpc":"2.0","id":…,"method":"query.set","params":
// {"key":[…],"data":…}}`, compact with the members in this order, in one pass over its bytes and
// without building JSON values or strings (the write fast path).
//
// The id and key are the plain subset `GetRequestScanner` accepts (the key compact). The data is
// accepted when its text is its canonical encoding, as `JSONValue.encoded` writes it, but perhaps
// for the order of object members: compact, strings of printable ASCII without escapes, integers
// of at most 18 digits (no `-0`, no fraction or exponent), nesting within `maxDepth` (counted over
// the whole line). When object names already ascend strictly (byte order, as the encoder sorts
// them) the data's bytes are stored as they are; otherwise `appendCanonicalData` writes them with
// the members sorted (refusing a repeated name). Equal data has equal bytes either way. Any other
// line is left to the general decoder.

/// Where the parts of a recognised `query.set` line are.
public struct SetRequestLine: Sendable, Equatable {
    /// The id's JSON text: exactly what `RPCID.write` writes for the id.
    public let id: Range<Int>
    /// The key array's text: its canonical JSON.
    public let key: Range<Int>
    /// The data's text: its canonical encoding when `dataIsCanonical`, else that but for the order
    /// of object members.
    public let data: Range<Int>
    /// Whether the data's text is its canonical encoding as it stands.
    public let dataIsCanonical: Bool

    /// Appends the data's canonical encoding to `out`: its text in `line` (the scanned line) with
    /// every object's members sorted by name. Returns false when an object repeats a name (which
    /// the general path resolves), with `out` then holding part of the encoding.
    public func appendCanonicalData(from line: UnsafeRawBufferPointer, maxDepth: Int, to out: inout [UInt8]) -> Bool {
        guard let base = line.baseAddress else { return false }
        var cursor = ScanCursor(
            base: base.assumingMemoryBound(to: UInt8.self), count: data.upperBound, maxDepth: maxDepth,
            knownKey: nil, index: data.lowerBound, acceptsUnorderedMembers: true)
        var members: [ScanCursor.Member] = []
        members.reserveCapacity(16)
        out.reserveCapacity(out.count + data.count)
        return cursor.appendCanonical(depth: 2, members: &members, to: &out)
    }
}

/// The single-pass scanner of `query.set` request lines (the write fast path).
public enum SetRequestScanner {
    /// Scans `line`: where its id, key and data are when it is a `query.set` request in the plain
    /// compact form above, nil otherwise.
    public static func scan(_ line: UnsafeRawBufferPointer, maxDepth: Int) -> SetRequestLine? {
        guard let base = line.baseAddress, !line.isEmpty, maxDepth >= 3 else { return nil }
        var cursor = ScanCursor(
            base: base.assumingMemoryBound(to: UInt8.self), count: line.count, maxDepth: maxDepth, knownKey: nil)
        return cursor.scanCompactSet()
    }
}

extension ScanCursor {
    fileprivate mutating func scanCompactSet() -> SetRequestLine? {
        guard consume(#"{"jsonrpc":"2.0","id":"#) else { return nil }
        let idStart = index
        if peek == UInt8(ascii: "\"") {
            guard plainString() else { return nil }
        } else {
            guard integer() else { return nil }
        }
        let id = idStart..<index
        guard consume(#","method":""#) else { return nil }
        return compactSet(id: id)
    }

    /// The rest of a compact `query.set` line from its method's name, its id at `id`.
    mutating func compactSet(id: Range<Int>) -> SetRequestLine? {
        guard consume(#"query.set","params":{"key":"#) else { return nil }
        assert(!acceptsUnorderedMembers, "the key is scanned with its members in canonical order")
        let keyStart = index
        // A key must be a non-empty array: `[]` is left to the general path, which refuses it. The
        // key and data are read as compact values: whitespace in them fails the scan.
        guard count - index >= 2, base[index] == UInt8(ascii: "["), base[index + 1] != UInt8(ascii: "]"),
            array(depth: 3, CompactLayout.self)
        else { return nil }
        let key = keyStart..<index
        guard consume(#","data":"#) else { return nil }
        let dataStart = index
        // The key's members must ascend (its text is its identity); the data's are sorted if not.
        acceptsUnorderedMembers = true
        guard value(depth: 2, CompactLayout.self) else { return nil }
        let data = dataStart..<index
        guard consume("}}"), index == count else { return nil }
        return SetRequestLine(id: id, key: key, data: data, dataIsCanonical: !sawUnorderedMembers)
    }

    /// An object member found by `appendCanonical`: where its name (without quotes) and value are.
    struct Member {
        let name: Range<Int>
        let value: Range<Int>
    }

    /// Appends the canonical encoding of the value at `index` (nested at `depth`, already accepted
    /// by `value(depth:_:)`, compact) to `out`, moving past it; false on an object with a name twice.
    /// An object's members are gathered at the end of `members` (one array for the whole value,
    /// each object using the part past its parent's and giving it back), sorted there by name, and
    /// written: a scalar member's bytes as they stand, a container's canonical encoding.
    fileprivate mutating func appendCanonical(depth: Int, members: inout [Member], to out: inout [UInt8]) -> Bool {
        let start = index
        switch base[index] {
        case UInt8(ascii: "{"):
            index += 1
            let first = members.count
            defer { members.removeSubrange(first...) }
            if !consume(UInt8(ascii: "}")) {
                repeat {
                    let nameStart = index
                    _ = plainString()
                    let name = nameStart + 1..<index - 1
                    index += 1
                    let valueStart = index
                    _ = value(depth: depth + 1, CompactLayout.self)
                    members.append(Member(name: name, value: valueStart..<index))
                } while consume(UInt8(ascii: ","))
                index += 1
            }
            // Sorted in place (sorting the slice `members[first...]` would sort a copy of it).
            members.withUnsafeMutableBufferPointer { all in
                var own = UnsafeMutableBufferPointer(rebasing: all[first...])
                own.sort { precedes($0.name, $1.name) }
            }
            out.append(UInt8(ascii: "{"))
            for offset in first..<members.count {
                let member = members[offset]
                if offset > first {
                    guard precedes(members[offset - 1].name, member.name) else { return false }
                    out.append(UInt8(ascii: ","))
                }
                // The name with its quotes.
                out.append(
                    contentsOf: UnsafeBufferPointer(
                        start: base + member.name.lowerBound - 1, count: member.name.count + 2))
                out.append(UInt8(ascii: ":"))
                let valueByte = base[member.value.lowerBound]
                if valueByte == UInt8(ascii: "{") || valueByte == UInt8(ascii: "[") {
                    var inner = self
                    inner.index = member.value.lowerBound
                    guard inner.appendCanonical(depth: depth + 1, members: &members, to: &out) else { return false }
                } else {
                    out.append(
                        contentsOf: UnsafeBufferPointer(
                            start: base + member.value.lowerBound, count: member.value.count))
                }
            }
            out.append(UInt8(ascii: "}"))
            return true
        case UInt8(ascii: "["):
            index += 1
            out.append(UInt8(ascii: "["))
            if !consume(UInt8(ascii: "]")) {
                repeat {
                    if index > start + 1 { out.append(UInt8(ascii: ",")) }
                    guard appendCanonical(depth: depth + 1, members: &members, to: &out) else { return false }
                } while consume(UInt8(ascii: ","))
                index += 1
            }
            out.append(UInt8(ascii: "]"))
            return true
        default:
            _ = value(depth: depth, CompactLayout.self)
            out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
            return true
        }
    }
}
