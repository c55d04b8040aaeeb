// Tells, in one pass, which fast path a request line is for: a plain `query.get` line (as
// `GetRequestScanner` reads it) or a plain `query.set` line (as `SetRequestScanner` reads it). A
// compact line's envelope and id are read once, and the method name picks the rest of the scan,
// so a `query.set` line is not first read as far as its method by the `query.get` scanner.

/// A request line as the fast paths see it.
public enum FastRequestLine: Sendable, Equatable {
    /// A `query.get` line (what `GetRequestScanner.scan` returns for it).
    case get(GetRequestLine)
    /// A `query.set` line (what `SetRequestScanner.scan` returns for it).
    case set(SetRequestLine)
    /// Neither: the line takes the general path.
    case other
}

/// The scanner of request lines for the fast paths.
public enum RequestLineScanner {
    /// Scans `line`: `.get` exactly when `GetRequestScanner.scan(line, maxDepth:, knownKey:)`
    /// accepts it, `.set` exactly when `SetRequestScanner.scan(line, maxDepth:)` does, with the
    /// same parts, `.other` otherwise.
    public static func scan(
        _ line: UnsafeRawBufferPointer, maxDepth: Int, knownKey: UnsafeRawBufferPointer? = nil
    ) -> FastRequestLine {
        guard let base = line.baseAddress, !line.isEmpty, maxDepth >= 3 else { return .other }
        var cursor = ScanCursor(
            base: base.assumingMemoryBound(to: UInt8.self), count: line.count, maxDepth: maxDepth, knownKey: knownKey)
        if let id = cursor.compactEnvelope() {
            if let found = cursor.compactGet(id: id) { return .get(found) }
            // The compact envelope naming another method: no layout makes the line a `query.get`.
            if cursor.namesOtherMethod {
                guard cursor.consume(#"query.set","params":{"key":"#), let found = cursor.compactSetParams(id: id)
                else { return .other }
                return .set(found)
            }
        }
        cursor.index = 0
        cursor.keyWhitespace = false
        return cursor.scanAnyRequest().map { .get($0) } ?? .other
    }
}
