// The cache generation every state object names in its `epoch` member: it changes when the daemon's
// cache starts over (a restart without persistence), so a client can tell "new data" from "start over".

import QuerydJSON

/// An opaque generation name, with its JSON text encoded once for the state writer.
public struct CacheEpoch: Sendable, Equatable {
    /// The name as `server.hello` and every state report it.
    public let text: String
    /// `text` as a JSON string, appended to every encoded state (never encoded per state).
    let encoded: [UInt8]

    /// The epoch named `text`.
    public init(_ text: String) {
        self.text = text
        var bytes: [UInt8] = []
        JSONWriter.writeString(text, to: &bytes)
        encoded = bytes
    }

    /// A new random epoch: 16 lowercase hexadecimal digits (64 random bits).
    public static func random() -> CacheEpoch {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return CacheEpoch(String(repeating: "0", count: 16 - digits.count) + digits)
    }

    public static func == (a: CacheEpoch, b: CacheEpoch) -> Bool { a.text == b.text }
}
