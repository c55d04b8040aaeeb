// Scans a request line for both fast paths in one pass: a plain `query.get` line exactly as
// `GetRequestScanner` reads it, and, when the line's compact envelope names another method, a plain
// `query.set` line as `SetRequestScanner` reads it, from the method's name on (its envelope and
// id are not read again).

/// The scanner of request lines for the fast paths.
public enum RequestLineScanner {
    /// Scans `line`: returns what `GetRequestScanner.scan(line, maxDepth:, knownKey:)` returns;
    /// when that is nil, sets `set` to what `SetRequestScanner.scan(line, maxDepth:)` returns
    /// (leaving it as it is when the line is not in the compact layout, which that scanner also
    /// declines).
    public static func scan(
        _ line: UnsafeRawBufferPointer, maxDepth: Int, knownKey: UnsafeRawBufferPointer? = nil,
        set: inout SetRequestLine?
    ) -> GetRequestLine? {
        guard let base = line.baseAddress, !line.isEmpty else { return nil }
        var cursor = ScanCursor(
            base: base.assumingMemoryBound(to: UInt8.self), count: line.count, maxDepth: maxDepth, knownKey: knownKey)
        if let found = cursor.scanRequest() { return found }
        if cursor.namesOtherMethod { set = cursor.compactSet(id: cursor.otherMethodID) }
        return nil
    }
}
