// The daemon under a low open-file limit (`ulimit -n 64`): it serves as many connections as fit and
// logs that it lowered --max-connections; every client past that reads the -32006 line, none a
// bare EOF, also when a flood of connections arrives at once; the served ones keep working.

import Glibc
import QuerydJSON
import Testing

@Suite("Open-file limit")
struct DescriptorLimitTests {
    static let refusal =
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32006,"message":"Too many connections","data":"#
        + #"{"limit":"max-connections","max":32,"retryable":true}}}"#

    @Test("under ulimit -n 64: 32 connections are served, every one of 150 more reads the -32006 line")
    func everyExtraClientIsToldWhy() throws {
        let daemon = try DaemonProcess(openFileLimit: 64)
        #expect(daemon.logTail().contains("serving at most 32 connections instead of --max-connections 1024"))
        var served: [LineClient] = []
        for _ in 0..<32 {
            let client = try daemon.connect()
            try client.expectHealthy()
            served.append(client)
        }
        // A flood: all connect before any is read, so the daemon accepts many in one turn.
        var extra: [LineClient] = []
        for _ in 0..<150 { extra.append(try daemon.connect()) }
        for (index, client) in extra.enumerated() {
            let line = try client.readLine()
            #expect(line == Self.refusal, "client \(index)")
            try client.expectEndOfStream()
        }
        for client in served { try client.expectHealthy() }
        served.removeLast().close()
        // A freed slot is served again (once the daemon has seen the close).
        var servedAgain = false
        let deadline = Clock.now + 5
        while !servedAgain, Clock.now < deadline {
            // A client refused meanwhile may find the socket closed before its ping is sent.
            let client = try daemon.connect()
            try? client.send(#"{"jsonrpc":"2.0","id":1,"method":"server.ping"}"#)
            servedAgain = (try? client.readLine()) == #"{"jsonrpc":"2.0","id":1,"result":{}}"#
            if !servedAgain { usleep(20_000) }
        }
        #expect(servedAgain)
        #expect(try daemon.stop() == .exited(0))
    }

    @Test(
        "descriptors a parent left open count: with 40 of them under ulimit -n 64, fewer connections are promised and kept"
    )
    func strayDescriptorsCountAgainstTheLimit() throws {
        // How many descriptors the runtime opens before the daemon counts them differs between builds,
        // so the test takes the number the log promises and checks that it is kept.
        let daemon = try DaemonProcess(openFileLimit: 64, strayDescriptors: 40)
        let tail = daemon.logTail()
        let promised = try #require(
            tail.split(separator: "\n").compactMap { line -> Int? in
                guard let range = line.firstRange(of: "serving at most ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }.first)
        #expect(promised < 32)
        #expect(tail.contains("descriptors are open at start"))
        var served: [LineClient] = []
        for _ in 0..<promised {
            let client = try daemon.connect()
            try client.expectHealthy()
            served.append(client)
        }
        let extra = try daemon.connect()
        let refusal =
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32006,"message":"Too many connections","data":"#
            + #"{"limit":"max-connections","max":\#(promised),"retryable":true}}}"#
        #expect(try extra.readLine() == refusal)
        for client in served { try client.expectHealthy() }
        #expect(try daemon.stop() == .exited(0))
    }
}
