// Input quoted back in an error (a method name, a member name, a value in a reason) is cut to a
// small size, so a huge name cannot make its error reply huge.

/// Shortening of client input that an error message or error data quotes back.
public enum EchoedText {
    /// The most UTF-8 bytes of input an error quotes back; longer input is cut to at most this many
    /// bytes (whole Unicode scalars) followed by `marker`.
    public static let limit = 256

    /// Appended to input cut by `shortened(_:)`.
    public static let marker = "…"

    /// `text` as an error may quote it: unchanged up to `limit` UTF-8 bytes, else the longest
    /// prefix of whole scalars within that many bytes followed by `marker`.
    public static func shortened(_ text: String) -> String {
        guard text.utf8.count > limit else { return text }
        var bytes = Array(text.utf8.prefix(limit))
        // Drop a scalar the cut left incomplete: its lead byte and the continuation bytes after it.
        if let lead = bytes.lastIndex(where: { $0 & 0xC0 != 0x80 }), bytes[lead] >= 0xC0 {
            let length = bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : 2
            if bytes.count - lead < length { bytes.removeSubrange(lead...) }
        }
        return String(decoding: bytes, as: UTF8.self) + marker
    }
}
