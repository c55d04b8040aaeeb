// Parsing Redis endpoints (redis:// and unix:// URLs) and the reconnection delays.
import QuerydTestSupport
import Testing

@testable import QuerydTransport

@Suite struct RedisLinkEndpointTests {
    @Test(arguments: [
        ("redis://localhost", RedisEndpoint.tcp(host: "localhost", port: 6379, database: 0)),
        ("redis://10.0.0.7:7000", .tcp(host: "10.0.0.7", port: 7000, database: 0)),
        ("redis://cache.example:6380/4", .tcp(host: "cache.example", port: 6380, database: 4)),
        ("redis://h:1/", .tcp(host: "h", port: 1, database: 0)),
        ("redis://h/2", .tcp(host: "h", port: 6379, database: 2)),
        ("redis://[::1]:6390/1", .tcp(host: "::1", port: 6390, database: 1)),
        ("redis://[fe80::1]", .tcp(host: "fe80::1", port: 6379, database: 0)),
        ("unix:///tmp/redis.sock", .unix(path: "/tmp/redis.sock", database: 0)),
        ("unix:///run/redis/r.sock?db=9", .unix(path: "/run/redis/r.sock", database: 9)),
    ])
    func parsesGoodEndpoints(text: String, expected: RedisEndpoint) throws {
        #expect(try RedisEndpoint(parsing: text) == expected)
    }

    @Test(arguments: [
        ("redis://user:secret@host:6379", "redis://user:secret@host:6379: credentials are not accepted in the URL"),
        ("redis://:secret@host", "redis://:secret@host: credentials are not accepted in the URL"),
        ("redis://user@host/1", "redis://user@host/1: credentials are not accepted in the URL"),
        (
            "unix://user:pw@/tmp/r.sock",
            "unix://user:pw@/tmp/r.sock: expected unix:///ABSOLUTE/PATH (no host, no credentials)"
        ),
        ("rediss://host", "rediss://host: TLS (rediss://) is not supported; use redis:// or unix://"),
        ("http://host", "http://host: expected redis://HOST:PORT[/DB] or unix:///PATH[?db=N]"),
        ("host:6379", "host:6379: expected redis://HOST:PORT[/DB] or unix:///PATH[?db=N]"),
        ("redis://", "redis://: the host is missing"),
        ("redis://:6379", "redis://:6379: the host is missing"),
        ("redis://h:0", "redis://h:0: the port must be a number from 1 to 65535"),
        ("redis://h:65536", "redis://h:65536: the port must be a number from 1 to 65535"),
        ("redis://h:abc", "redis://h:abc: the port must be a number from 1 to 65535"),
        ("redis://h:", "redis://h:: the port must be a number from 1 to 65535"),
        ("redis://h/x", "redis://h/x: the database must be a number 0 or greater"),
        ("redis://h/-1", "redis://h/-1: the database must be a number 0 or greater"),
        ("redis://h?db=1", "redis://h?db=1: only a /DB may follow the port"),
        ("redis://[::1", "redis://[::1: unclosed '[' in host"),
        ("redis://[::1]x", "redis://[::1]x: unexpected text after ']'"),
        ("unix://", "unix://: expected unix:///ABSOLUTE/PATH (no host, no credentials)"),
        ("unix:///", "unix:///: the socket path is missing"),
        ("unix:///r.sock?db=x", "unix:///r.sock?db=x: the database must be a number 0 or greater"),
        ("unix:///r.sock?timeout=1", "unix:///r.sock?timeout=1: the only query accepted is ?db=N"),
    ])
    func refusesBadEndpoints(text: String, message: String) {
        #expect(throws: RedisEndpointError(message)) { try RedisEndpoint(parsing: text) }
    }

    @Test func refusesASocketPathLongerThanSunPath() throws {
        let path = "/tmp/" + String(repeating: "p", count: 103)
        #expect(throws: RedisEndpointError.self) { try RedisEndpoint(parsing: "unix://" + path) }
        #expect(
            try RedisEndpoint(parsing: "unix://" + String(path.dropLast()))
                == .unix(path: String(path.dropLast()), database: 0))
    }

    @Test func delaysGrowByTheFactorUpToTheMaximum() {
        var generator = SeededGenerator(seed: 1)
        let exact = ReconnectDelays(firstMilliseconds: 50, factor: 2, maximumMilliseconds: 2_000, jitter: 0)
        #expect(
            (1...8).map { exact.milliseconds(afterFailures: $0, using: &generator) } == [
                50, 100, 200, 400, 800, 1_600, 2_000, 2_000,
            ])
        #expect(exact.milliseconds(afterFailures: 10_000, using: &generator) == 2_000)
    }

    @Test func jitterShortensEachDelayByAtMostItsFraction() {
        var generator = SeededGenerator(seed: 7)
        let delays = ReconnectDelays.standard
        #expect(delays == ReconnectDelays(firstMilliseconds: 50, factor: 2, maximumMilliseconds: 2_000, jitter: 0.2))
        var seen: Set<UInt64> = []
        for _ in 0..<200 {
            let first = delays.milliseconds(afterFailures: 1, using: &generator)
            #expect((40...50).contains(first))
            seen.insert(first)
            #expect((1_600...2_000).contains(delays.milliseconds(afterFailures: 12, using: &generator)))
        }
        #expect(seen.count > 5)
    }
}
