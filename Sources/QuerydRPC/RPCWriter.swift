// Writes outbound JSON-RPC envelopes as compact JSON, without the line's trailing newline.

public import QuerydJSON

/// Appends JSON-RPC 2.0 messages to a byte buffer. No trailing newline is written: the
/// session ends each line with `"\n"` and joins batch replies with `"["`, `","` and `"]"`.
///
/// Member order is fixed: `{"jsonrpc":"2.0","id":…,"result":…}`,
/// `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…,"data":…}}`,
/// `{"jsonrpc":"2.0","id":…,"method":…,"params":…}` and
/// `{"jsonrpc":"2.0","method":…,"params":…}`. Every string, including an error's message and
/// data, goes through the JSON encoder, so no raw control character reaches the wire.
public enum RPCWriter {
    private static let responseHead: StaticString = #"{"jsonrpc":"2.0","id":"#
    private static let resultKey: StaticString = #","result":"#
    private static let errorKey: StaticString = #","error":"#
    private static let methodKey: StaticString = #","method":"#
    private static let notificationHead: StaticString = #"{"jsonrpc":"2.0","method":"#
    private static let paramsKey: StaticString = #","params":"#
    private static let closeBrace = UInt8(ascii: "}")

    /// A success response with a result value.
    public static func result(id: RPCID, result: JSONValue, to out: inout [UInt8]) {
        append(responseHead, to: &out)
        id.write(to: &out)
        append(resultKey, to: &out)
        result.write(to: &out)
        out.append(closeBrace)
    }

    /// A success response whose result is already encoded: `encodedResult` must be one
    /// compact JSON value (as produced by `JSONValue.write`), and is copied verbatim.
    public static func result(id: RPCID, encodedResult: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let needed =
            out.count + responseHead.utf8CodeUnitCount + 24 + resultKey.utf8CodeUnitCount + encodedResult.count + 1
        if out.capacity < needed { out.reserveCapacity(max(needed, 2 * out.capacity)) }
        append(responseHead, to: &out)
        id.write(to: &out)
        append(resultKey, to: &out)
        out.append(contentsOf: encodedResult.assumingMemoryBound(to: UInt8.self))
        out.append(closeBrace)
    }

    /// A success response whose id is given as its JSON text (`rawID`, copied verbatim, e.g. the
    /// id's bytes in the request line as `GetRequestScanner` finds them) and whose result is
    /// appended by `writeResult` (about `resultBytes` long, for the capacity reserved up front).
    /// Returns false, leaving `out` as it was, when `writeResult` writes nothing and returns false.
    public static func result(
        rawID: UnsafeRawBufferPointer, resultBytes: Int, to out: inout [UInt8],
        writeResult: (inout [UInt8]) -> Bool
    ) -> Bool {
        let start = out.count
        let needed =
            start + responseHead.utf8CodeUnitCount + rawID.count + resultKey.utf8CodeUnitCount + resultBytes + 2
        if out.capacity < needed { out.reserveCapacity(max(needed, 2 * out.capacity)) }
        // The envelope up to the result is assembled first and appended at once (each append has
        // a fixed cost well above copying a few dozen bytes).
        let headCount = responseHead.utf8CodeUnitCount
        let keyCount = resultKey.utf8CodeUnitCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: headCount + rawID.count + keyCount) { head in
            // Safety: the three copies fill `head` exactly, each within its bounds.
            let base = head.baseAddress!
            base.initialize(from: responseHead.utf8Start, count: headCount)
            if let id = rawID.baseAddress {
                (base + headCount).initialize(from: id.assumingMemoryBound(to: UInt8.self), count: rawID.count)
            }
            (base + headCount + rawID.count).initialize(from: resultKey.utf8Start, count: keyCount)
            out.append(contentsOf: UnsafeBufferPointer(head))
        }
        guard writeResult(&out) else {
            out.removeSubrange(start...)
            return false
        }
        out.append(closeBrace)
        return true
    }

    /// A success response whose result is already encoded (see the pointer variant).
    public static func result(id: RPCID, encodedResult: [UInt8], to out: inout [UInt8]) {
        encodedResult.withUnsafeBytes { result(id: id, encodedResult: $0, to: &out) }
    }

    /// An error response; a nil id is written as `null` (the request's id was unknown).
    public static func error(id: RPCID?, error: RPCError, to out: inout [UInt8]) {
        append(responseHead, to: &out)
        (id ?? .null).write(to: &out)
        append(errorKey, to: &out)
        error.write(to: &out)
        out.append(closeBrace)
    }

    /// A request from this side (a server-to-client call such as `fetch`).
    public static func request(id: RPCID, method: String, params: JSONValue, to out: inout [UInt8]) {
        append(responseHead, to: &out)
        id.write(to: &out)
        append(methodKey, to: &out)
        JSONWriter.writeString(method, to: &out)
        append(paramsKey, to: &out)
        params.write(to: &out)
        out.append(closeBrace)
    }

    /// A notification (no id; the peer never answers it).
    public static func notification(method: String, params: JSONValue, to out: inout [UInt8]) {
        append(notificationHead, to: &out)
        JSONWriter.writeString(method, to: &out)
        append(paramsKey, to: &out)
        params.write(to: &out)
        out.append(closeBrace)
    }

    /// Appends a compile-time constant's UTF-8 bytes (no allocation, no reference counting).
    @inline(__always)
    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
