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
    private static let responseHead: [UInt8] = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private static let resultKey: [UInt8] = Array(#","result":"#.utf8)
    private static let errorKey: [UInt8] = Array(#","error":"#.utf8)
    private static let methodKey: [UInt8] = Array(#","method":"#.utf8)
    private static let notificationHead: [UInt8] = Array(#"{"jsonrpc":"2.0","method":"#.utf8)
    private static let paramsKey: [UInt8] = Array(#","params":"#.utf8)
    private static let closeBrace = UInt8(ascii: "}")

    /// A success response with a result value.
    public static func result(id: RPCID, result: JSONValue, to out: inout [UInt8]) {
        out.append(contentsOf: responseHead)
        id.write(to: &out)
        out.append(contentsOf: resultKey)
        result.write(to: &out)
        out.append(closeBrace)
    }

    /// A success response whose result is already encoded: `encodedResult` must be one
    /// compact JSON value (as produced by `JSONValue.write`), and is copied verbatim.
    public static func result(id: RPCID, encodedResult: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let needed = out.count + responseHead.count + 24 + resultKey.count + encodedResult.count + 1
        if out.capacity < needed { out.reserveCapacity(max(needed, 2 * out.capacity)) }
        out.append(contentsOf: responseHead)
        id.write(to: &out)
        out.append(contentsOf: resultKey)
        out.append(contentsOf: encodedResult.assumingMemoryBound(to: UInt8.self))
        out.append(closeBrace)
    }

    /// A success response whose result is already encoded (see the pointer variant).
    public static func result(id: RPCID, encodedResult: [UInt8], to out: inout [UInt8]) {
        encodedResult.withUnsafeBytes { result(id: id, encodedResult: $0, to: &out) }
    }

    /// An error response; a nil id is written as `null` (the request's id was unknown).
    public static func error(id: RPCID?, error: RPCError, to out: inout [UInt8]) {
        out.append(contentsOf: responseHead)
        (id ?? .null).write(to: &out)
        out.append(contentsOf: errorKey)
        error.write(to: &out)
        out.append(closeBrace)
    }

    /// A request from this side (a server-to-client call such as `fetch`).
    public static func request(id: RPCID, method: String, params: JSONValue, to out: inout [UInt8]) {
        out.append(contentsOf: responseHead)
        id.write(to: &out)
        out.append(contentsOf: methodKey)
        JSONWriter.writeString(method, to: &out)
        out.append(contentsOf: paramsKey)
        params.write(to: &out)
        out.append(closeBrace)
    }

    /// A notification (no id; the peer never answers it).
    public static func notification(method: String, params: JSONValue, to out: inout [UInt8]) {
        out.append(contentsOf: notificationHead)
        JSONWriter.writeString(method, to: &out)
        out.append(contentsOf: paramsKey)
        params.write(to: &out)
        out.append(closeBrace)
    }
}
