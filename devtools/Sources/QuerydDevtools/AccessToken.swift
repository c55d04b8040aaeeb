// The secret that opens the devtools: 32 bytes from the system's random number generator, as 64 hex digits,
// compared in constant time.

/// The token every HTTP request and WebSocket upgrade must carry.
public struct AccessToken: Sendable {
    /// The token's text (64 lowercase hex digits).
    public let text: String

    /// A new random token. `SystemRandomNumberGenerator` reads the system's generator (getrandom on Linux).
    public init() {
        var generator = SystemRandomNumberGenerator()
        text = (0..<32).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0xf, radix: 16)
        }.joined()
    }

    /// Whether `candidate` is the token. The time taken depends on the lengths only, not on where they differ.
    public func matches(_ candidate: some StringProtocol) -> Bool {
        let expected = Array(text.utf8)
        let given = Array(candidate.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }

    /// The token a request presents: its `token` query parameter, else an `Authorization: Bearer` header.
    public static func presented(query: String?, authorization: String?) -> Substring? {
        if let query {
            for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
                return pair.dropFirst("token=".count)
            }
        }
        if let authorization, authorization.lowercased().hasPrefix("bearer ") {
            return authorization.dropFirst("bearer ".count).drop(while: { $0 == " " })
        }
        return nil
    }
}
