// Which pages may open the devtools' WebSocket: only the devtools' own page. A browser sends `Origin` with every
// WebSocket upgrade; it must be the origin the request was addressed to (`Host`), and that host must be the one the
// devtools listen on, so neither another site's script nor a DNS-rebound name gets in, even with the token.

/// The rule for WebSocket upgrades.
public struct OriginPolicy: Sendable {
    /// The host names (as in a URL) the page may be reached by.
    public let hosts: Set<String>

    /// The policy for a server listening on `address` (for a loopback address, by name as well as by number).
    public init(address: ListenAddress) {
        var hosts = [address.urlHost.lowercased()]
        if address.isLoopback {
            hosts += ["127.0.0.1", "[::1]", "localhost"]
        }
        self.hosts = Set(hosts)
    }

    /// Whether an upgrade with these `Origin` and `Host` headers may proceed (either missing: refused).
    public func allows(origin: String?, host: String?) -> Bool {
        guard let origin, let host = host?.lowercased(), origin.lowercased() == "http://\(host)" else { return false }
        let name = host.lastIndex(of: ":").map { String(host[..<$0]) } ?? host
        return hosts.contains(name)
    }
}
