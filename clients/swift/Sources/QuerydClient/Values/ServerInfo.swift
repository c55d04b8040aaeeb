// What the daemon reports in `server.hello`: the negotiated protocol, its identity and capabilities.

import QuerydJSON

/// The outcome of the protocol negotiation on the current connection (`server.hello`).
public struct ServerInfo: Sendable, Hashable {
    /// The protocol both sides speak: 2, or 1 with a daemon that predates negotiation.
    public var protocolVersion: Int
    /// The daemon's release.
    public var version: String?
    /// The daemon's node name (protocol 2; nil with a protocol-1 daemon).
    public var node: String?
    /// The cache generation (protocol 2): it changes when the daemon's cache starts over. Nil when unknown.
    public var epoch: String?
    /// The method, option, field and notification names the daemon serves (`option:push`, ...).
    public var capabilities: Set<String>

    /// Reads a `server.hello` result; `fallbackProtocol` applies when it names none.
    init(hello result: JSONValue, fallbackProtocol: Int) {
        protocolVersion = result["protocol"]?.intValue ?? fallbackProtocol
        version = result["version"]?.stringValue
        node = result["node"]?.stringValue
        epoch = result["epoch"]?.stringValue
        capabilities = Set((result["capabilities"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    /// Whether the daemon lists `capability`.
    public func supports(_ capability: String) -> Bool { capabilities.contains(capability) }
}
