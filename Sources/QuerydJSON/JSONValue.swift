// The JSON value model shared by every queryd module.
//
// Objects are unordered: equality and hashing ignore member order, so a value can be used
// directly as a dictionary key, and the encoder writes members sorted by their UTF-8 bytes
// (the canonical form queryd uses for query keys and for stored data).

/// A JSON value as defined by RFC 8259, restricted to I-JSON (RFC 7493) on input.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
