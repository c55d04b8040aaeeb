// Every documented error code maps to one named case (the names the Python and Node clients use).

import QuerydClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct ErrorCodeTests {
    @Test func everyDocumentedCodeHasOneCase() {
        let named: [(Int, RPCError.Code)] = [
            (-32700, .parseError), (-32600, .invalidRequest), (-32601, .methodNotFound), (-32602, .invalidParams),
            (-32603, .internalError), (-32001, .fetchFailed), (-32002, .noFetcher), (-32003, .cancelledByServer),
            (-32004, .attemptTimeout), (-32005, .unknownID), (-32006, .limitExceeded), (-32007, .mutationFailed),
            (-32008, .permissionDenied), (-32009, .versionConflict), (-32800, .requestCancelled),
        ]
        #expect(RPCError.Code.allCases.count == named.count)
        for (raw, code) in named {
            #expect(RPCError(RPCErrorCode(rawValue: raw)).knownCode == code)
        }
        #expect(RPCError(RPCErrorCode(rawValue: -32000)).knownCode == nil)
    }

    @Test func retryHintsAreRead() {
        let error = RPCError(
            .limitExceeded, data: ["limit": "max-outbound-bytes", "retryable": true, "retryAfterMs": 250])
        #expect(error.isRetryable && error.retryAfter == 0.25)
        #expect(!RPCError(.fetchFailed).isRetryable && RPCError(.fetchFailed).retryAfter == nil)
        #expect(QueryClientError.server(error).code == .limitExceeded && QueryClientError.closed.code == nil)
    }

    @Test func aFetchWithoutAFetcherIsNoFetcher() async throws {
        let daemon = try TestDaemon()
        let client = try await connectedClient(daemon)
        do {
            _ = try await client.fetch(["nobody"], options: QueryOptions(timeout: 0.05))
            Issue.record("the fetch should have failed")
        } catch {
            #expect(error.code == .noFetcher)
        }
        await client.close()
    }
}
