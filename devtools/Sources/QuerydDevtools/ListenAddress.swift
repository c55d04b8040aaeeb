// `--listen HOST:PORT`: where the devtools' HTTP server binds, and the origin its page is served from.

/// A host and TCP port to listen on.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int

    /// The default: loopback only, port 7317.
    public static let standard = ListenAddress(host: "127.0.0.1", port: 7317)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (`[::1]:PORT` for an IPv6 address; port 0 for any free port); nil when malformed.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.init(host: host, port: port)
    }

    /// Whether the host is this machine's loopback (the default), by number or as `localhost`.
    public var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }

    /// The host as it appears in a URL (IPv6 in brackets).
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    public var description: String { "\(urlHost):\(port)" }
}
