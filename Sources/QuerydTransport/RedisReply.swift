// A Redis reply as a value: converted from hiredis's `redisReply` tree, which hiredis owns and frees.
import CHiredis

/// One reply of Redis (RESP2), bulk strings kept as bytes.
public indirect enum RedisReply: Sendable, Equatable {
    /// A simple string reply, e.g. `OK`.
    case status(String)
    /// An error reply, e.g. `ERR unknown command`; also the link's own `QUERYD-…` errors.
    case error(String)
    /// An integer reply.
    case integer(Int64)
    /// A bulk string, binary-safe.
    case bulk([UInt8])
    /// A null bulk string or null array.
    case null
    /// An array reply.
    case array([RedisReply])

    /// The prefix of the error replies the link makes itself when Redis cannot answer: not connected, connection
    /// lost before the reply, or no reply within the command timeout.
    public static let disconnectedPrefix = "QUERYD-DISCONNECTED"

    /// True for the link's own `QUERYD-DISCONNECTED …` error (Redis did not answer), false for Redis's replies.
    public var isDisconnected: Bool {
        if case .error(let message) = self { return message.hasPrefix(Self.disconnectedPrefix) }
        return false
    }

    /// The error message of a command Redis could not answer, for the reason `detail`.
    static func disconnected(_ detail: String) -> String {
        "\(disconnectedPrefix) \(detail)"
    }

    /// Copies the reply tree at `raw` (a `redisReply *` handed to a hiredis callback, which hiredis frees after the
    /// callback returns) into a value.
    init(_ raw: UnsafeMutableRawPointer) {
        self.init(UnsafePointer(raw.assumingMemoryBound(to: redisReply.self)))
    }

    /// Copies hiredis's reply tree into a value. The caller keeps ownership of `reply`.
    init(_ reply: UnsafePointer<redisReply>) {
        let node = reply.pointee
        switch node.type {
        case REDIS_REPLY_STRING:
            self = .bulk(Self.bytes(node.str, node.len))
        case REDIS_REPLY_STATUS:
            self = .status(String(decoding: Self.bytes(node.str, node.len), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            self = .error(String(decoding: Self.bytes(node.str, node.len), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(node.integer))
        case REDIS_REPLY_ARRAY:
            // Safety: hiredis allocates `element` with `elements` non-null entries for an array reply.
            self = .array((0..<Int(node.elements)).map { RedisReply(UnsafePointer(node.element[$0]!)) })
        default:
            self = .null
        }
    }

    /// The `len` bytes at `str` (hiredis's pointer/length pair; `str` may be nil when `len` is 0).
    private static func bytes(_ str: UnsafeMutablePointer<CChar>?, _ len: Int) -> [UInt8] {
        guard let str, len > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: str, count: len))
    }
}
