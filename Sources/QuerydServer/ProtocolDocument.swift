// Public access to the protocol's OpenRPC document, for `queryd openrpc`.

/// The OpenRPC document of the protocol.
public enum ProtocolDocument {
    /// The full document (gated methods included) as JSON text.
    public static var fullText: String { OpenRPCDocument.text }
}
