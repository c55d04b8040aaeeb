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

    /// How many bytes a success response takes besides its id and result: the envelope up to
    /// the id, the result's member name, and the closing brace.
    public static let resultFramingByteCount = responseHead.utf8CodeUnitCount + resultKey.utf8CodeUnitCount + 1

    /// Writes a success response's envelope up to its result, `{"jsonrpc":"2.0","id":…,"result":`,
    /// at `next`, with the id given as its JSON text (`rawID`, copied verbatim, e.g. the id's bytes
    /// in the request line as `GetRequestScanner` finds them); returns the address after it. `next`
    /// needs room for `resultFramingByteCount + rawID.count` bytes with the closing brace, which
    /// `writeResultTail(at:)` writes after the result.
    public static func writeResultHead(rawID: UnsafeRawBufferPointer, at next: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        var at = next
        at.initialize(from: responseHead.utf8Start, count: responseHead.utf8CodeUnitCount)
        at += responseHead.utf8CodeUnitCount
        if let id = rawID.baseAddress {
            UnsafeMutableRawPointer(at).copyMemory(from: id, byteCount: rawID.count)
            at += rawID.count
        }
        at.initialize(from: resultKey.utf8Start, count: resultKey.utf8CodeUnitCount)
        return at + resultKey.utf8CodeUnitCount
    }

    /// Writes the closing brace of a response begun by `writeResultHead(rawID:at:)`; returns the
    /// address after it.
    public static func writeResultTail(at next: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        next.initialize(to: closeBrace)
        return next + 1
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
