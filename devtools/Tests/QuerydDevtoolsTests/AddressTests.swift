// `--listen HOST:PORT` and the WebSocket's origin rule.

import QuerydDevtools
import Testing

@Suite struct AddressTests {
    @Test func parsesHostAndPort() {
        #expect(ListenAddress("127.0.0.1:7317") == ListenAddress(host: "127.0.0.1", port: 7317))
        #expect(ListenAddress("[::1]:0") == ListenAddress(host: "::1", port: 0))
        #expect(ListenAddress("[::1]:0")?.description == "[::1]:0")
        for bad in ["127.0.0.1", ":80", "host:", "host:70000", "host:-1", "host:http"] {
            #expect(ListenAddress(bad) == nil, "\(bad)")
        }
        #expect(ListenAddress.standard.isLoopback && ListenAddress("[::1]:1")!.isLoopback)
        #expect(ListenAddress("localhost:1")!.isLoopback && !ListenAddress("0.0.0.0:1")!.isLoopback)
    }

    @Test func acceptsOnlyThePagesOwnOrigin() {
        let policy = OriginPolicy(address: ListenAddress(host: "127.0.0.1", port: 7317))
        #expect(policy.allows(origin: "http://127.0.0.1:7317", host: "127.0.0.1:7317"))
        #expect(policy.allows(origin: "http://localhost:7317", host: "localhost:7317"))
        #expect(!policy.allows(origin: "http://evil.example", host: "127.0.0.1:7317"))
        #expect(!policy.allows(origin: "http://127.0.0.1:7318", host: "127.0.0.1:7317"))
        #expect(!policy.allows(origin: nil, host: "127.0.0.1:7317"))
        #expect(!policy.allows(origin: "http://evil.example:7317", host: "evil.example:7317"))  // DNS rebinding
        #expect(!policy.allows(origin: "null", host: "127.0.0.1:7317"))
    }
}
