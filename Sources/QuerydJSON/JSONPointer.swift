// JSON Pointer (RFC 6901): parsing the string form and resolving it against a JSONValue.

/// Why a JSON Pointer's text was rejected.
public struct JSONPointerError: Error, Sendable, Equatable {
    /// A short human-readable sentence.
    public let message: String

    /// Creates an error with `message`.
    public init(message: String) { self.message = message }
}

/// A JSON Pointer (RFC 6901), such as `/params/key/1`. The empty pointer denotes the whole document.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, already unescaped (`~1` became `/`, `~0` became `~`).
    public let tokens: [String]

    /// Parses the string form of a pointer: empty, or a sequence of `/`-prefixed tokens in which
    /// `~` must be followed by `0` or `1`.
    public init(_ text: String) throws(JSONPointerError) {
        if text.isEmpty {
            tokens = []
            return
        }
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw JSONPointerError(message: "a JSON Pointer must be empty or start with '/'")
        }
        var parsed: [String] = []
        var current: [UInt8] = []
        var iterator = text.utf8.dropFirst().makeIterator()
        while let c = iterator.next() {
            switch c {
            case UInt8(ascii: "/"):
                parsed.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            case UInt8(ascii: "~"):
                switch iterator.next() {
                case UInt8(ascii: "0"): current.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): current.append(UInt8(ascii: "/"))
                default: throw JSONPointerError(message: "'~' must be followed by '0' or '1' in a JSON Pointer")
                }
            default:
                current.append(c)
            }
        }
        parsed.append(String(decoding: current, as: UTF8.self))
        tokens = parsed
    }

    /// A pointer made of already-unescaped tokens.
    public init(tokens: [String]) { self.tokens = tokens }

    /// The string form, with `~` written as `~0` and `/` as `~1`.
    public var description: String {
        var text = ""
        for token in tokens {
            text += "/"
            for character in token.unicodeScalars {
                switch character {
                case "~": text += "~0"
                case "/": text += "~1"
                default: text.unicodeScalars.append(character)
                }
            }
        }
        return text
    }

    /// The value this pointer refers to in `value`, or nil when some token does not resolve.
    /// Array tokens must be `0` or a digit string without leading zeros within range; `-` never resolves.
    public func resolve(in value: JSONValue) -> JSONValue? {
        var current = value
        for token in tokens {
            switch current {
            case .object(let members):
                guard let member = members[token] else { return nil }
                current = member
            case .array(let items):
                guard let index = JSONPointer.arrayIndex(token), index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The index named by an array token, or nil when the token is not a canonical index.
    static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, utf8.count <= 18 else { return nil }
        if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
        var index = 0
        for c in utf8 {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            index = index * 10 + Int(c - UInt8(ascii: "0"))
        }
        return index
    }
}
