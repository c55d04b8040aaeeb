// Where a Redis server is: a TCP host and port or a Unix socket path, with the database to select, parsed from
// `redis://HOST:PORT[/DB]` or `unix:///PATH[?db=N]`.

/// The address of a Redis server and the database the link selects after connecting.
public enum RedisEndpoint: Sendable, Equatable {
    /// A TCP server; `host` is a name or an address (IPv6 without brackets).
    case tcp(host: String, port: Int, database: Int)
    /// A server on a Unix socket.
    case unix(path: String, database: Int)

    /// Parses `redis://HOST:PORT[/DB]` (port defaults to 6379, DB to 0) or `unix:///PATH[?db=N]`.
    /// A URL carrying a user or password is refused (credentials come from the environment or a file).
    /// IPv6 hosts are written in brackets: `redis://[::1]:6379`.
    public init(parsing text: String) throws(RedisEndpointError) {
        if text.hasPrefix("redis://") {
            self = try Self.parseTCP(String(text.dropFirst("redis://".count)), url: text)
        } else if text.hasPrefix("unix://") {
            self = try Self.parseUnix(String(text.dropFirst("unix://".count)), url: text)
        } else if text.hasPrefix("rediss://") {
            throw RedisEndpointError("\(text): TLS (rediss://) is not supported; use redis:// or unix://")
        } else {
            throw RedisEndpointError("\(text): expected redis://HOST:PORT[/DB] or unix:///PATH[?db=N]")
        }
    }

    /// The database selected after connecting (0 needs no SELECT).
    public var database: Int {
        switch self {
        case .tcp(_, _, let database), .unix(_, let database): database
        }
    }

    private static func parseTCP(_ rest: String, url: String) throws(RedisEndpointError) -> RedisEndpoint {
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let tail = rest.dropFirst(authority.count)
        if authority.contains("@") {
            throw RedisEndpointError("\(url): credentials are not accepted in the URL")
        }
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw RedisEndpointError("\(url): unclosed '[' in host") }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw RedisEndpointError("\(url): unexpected text after ']'") }
                portText = after.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw RedisEndpointError("\(url): the host is missing") }
        var port = 6379
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value) else {
                throw RedisEndpointError("\(url): the port must be a number from 1 to 65535")
            }
            port = value
        }
        var database = 0
        if tail.hasPrefix("/") {
            let text = tail.dropFirst()
            if !text.isEmpty {
                database = try parseDatabase(text, url: url)
            }
        } else if !tail.isEmpty {
            throw RedisEndpointError("\(url): only a /DB may follow the port")
        }
        return .tcp(host: String(host), port: port, database: database)
    }

    private static func parseUnix(_ rest: String, url: String) throws(RedisEndpointError) -> RedisEndpoint {
        guard rest.hasPrefix("/") else {
            throw RedisEndpointError("\(url): expected unix:///ABSOLUTE/PATH (no host, no credentials)")
        }
        var path = Substring(rest)
        var database = 0
        if let question = rest.firstIndex(of: "?") {
            path = rest[..<question]
            let query = rest[rest.index(after: question)...]
            guard query.hasPrefix("db=") else { throw RedisEndpointError("\(url): the only query accepted is ?db=N") }
            database = try parseDatabase(query.dropFirst("db=".count), url: url)
        }
        guard path.count > 1 else { throw RedisEndpointError("\(url): the socket path is missing") }
        if let problem = socketPathProblem(String(path), context: "redis endpoint") {
            throw RedisEndpointError("\(url): \(problem.context)")
        }
        return .unix(path: String(path), database: database)
    }

    private static func parseDatabase(_ text: Substring, url: String) throws(RedisEndpointError) -> Int {
        guard text.allSatisfy(\.isASCII), let value = Int(text), value >= 0 else {
            throw RedisEndpointError("\(url): the database must be a number 0 or greater")
        }
        return value
    }
}

/// Why a Redis endpoint could not be parsed.
public struct RedisEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the text that was parsed.
    public let message: String

    /// An error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
