// Public access to the protocol's OpenRPC document, for `queryd openrpc`.

/// The OpenRPC document of the protocol.
public enum ProtocolDocument {
    /// The full document (gated methods included) as JSON text: the exact contents of
    /// protocol/openrpc.json, final newline included.
    public static var fullText: String { OpenRPCDocument.text }
}
