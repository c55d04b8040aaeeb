// Helpers for scenario tests: the full query state object, fetcher registration and fetch requests.

import Glibc
import QuerydJSON
import Testing

/// The manual clock's starting time (ms).
let clockStart = 1_700_000_000_000

/// A complete query state object as decisions.md defines it; derived flags are computed from
/// `status`, `fetchStatus` and the counters; `version` is a placeholder.
func queryState(
    _ key: JSONValue, status: String = "pending", fetchStatus: String = "idle", data: JSONValue? = nil,
    dataUpdatedAt: Int = 0, dataUpdateCount: Int = 0, error: JSONValue = nil, errorUpdatedAt: Int = 0,
    errorUpdateCount: Int = 0, failureCount: Int = 0, failureReason: JSONValue = nil, isInvalidated: Bool = false,
    isStale: Bool = true
) -> JSONValue {
    var state: [String: JSONValue] = [
        "key": key, "status": .string(status), "fetchStatus": .string(fetchStatus),
        "dataUpdatedAt": .number(JSONNumber(dataUpdatedAt)), "dataUpdateCount": .number(JSONNumber(dataUpdateCount)),
        "error": error, "errorUpdatedAt": .number(JSONNumber(errorUpdatedAt)),
        "errorUpdateCount": .number(JSONNumber(errorUpdateCount)), "failureCount": .number(JSONNumber(failureCount)),
        "failureReason": failureReason, "isInvalidated": .bool(isInvalidated), "isStale": .bool(isStale),
        "isPlaceholderData": false, "isLoading": .bool(status == "pending" && fetchStatus == "fetching"),
        "isFetching": .bool(fetchStatus == "fetching"),
        "isRefetching": .bool(fetchStatus == "fetching" && status != "pending"),
        "isSuccess": .bool(status == "success"), "isError": .bool(status == "error"),
        "isPending": .bool(status == "pending"), "isPaused": .bool(fetchStatus == "paused"),
        "isFetched": .bool(dataUpdateCount + errorUpdateCount > 0), "version": "$number",
    ]
    if let data { state["data"] = data }
    return .object(state)
}

/// A successful state fetched or set once at `at` (default: the clock start).
func successState(_ key: JSONValue, data: JSONValue, at time: Int = clockStart, count: Int = 1) -> JSONValue {
    queryState(key, status: "success", data: data, dataUpdatedAt: time, dataUpdateCount: count)
}

/// The stored form of a fetcher's error.
func fetchFailed(_ error: JSONValue) -> JSONValue {
    ["code": -32001, "message": "Fetch failed", "data": error]
}

extension LineClient {
    /// Registers this connection as a fetcher for `key`; returns the fetcher id.
    func registerFetcher(_ key: JSONValue, cancellable: Bool = false) throws -> JSONValue {
        let result = try self.result("fetcher.register", ["key": key, "cancellable": .bool(cancellable)])
        guard let id = result.member("fetcher"), (id.asInt ?? 0) > 0 else {
            throw IntegrationError("fetcher.register returned \(result.encodedString)")
        }
        return id
    }

    /// Waits for a `fetch` request and checks its params exactly; returns the request's id.
    func expectFetch(
        fetcher: JSONValue, key: JSONValue, attempt: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONValue {
        let request = try nextRequest(method: "fetch")
        expectJSON(
            request,
            [
                "jsonrpc": "2.0", "id": "$number", "method": "fetch",
                "params": ["fetcher": fetcher, "key": key, "attempt": .number(JSONNumber(attempt))],
            ],
            sourceLocation: sourceLocation)
        return request.member("id") ?? nil
    }

    /// Advances the manual clock by `ms` and checks the returned time.
    func advance(_ ms: Int, to now: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try self.result("clock.advance", ["ms": .number(JSONNumber(ms))])
        #expect(result == ["now": .number(JSONNumber(now))], "clock.advance: \(result)", sourceLocation: sourceLocation)
    }

    /// Polls `server.stats` (every 10 ms, at most 5 s) until `field` equals `value`: the way to know
    /// the daemon has processed an event on another connection, such as a disconnect.
    func waitForStats(_ field: String, toBe value: Int) throws {
        let deadline = Clock.now + 5
        var last: JSONValue = nil
        while Clock.now < deadline {
            last = try result("server.stats", [:])
            if last.member(field)?.asInt == value { return }
            usleep(10_000)
        }
        throw IntegrationError("server.stats.\(field) never became \(value); last: \(last.encodedString)")
    }

    /// Checks that `server.ping` is answered (the daemon is healthy for this connection).
    func expectHealthy(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try result("server.ping", [:]) == [:], sourceLocation: sourceLocation)
    }
}

extension LineClient {
    /// The batch line of `query.set {key: ["hot"], data: {n, pad}}` requests with ids and `n` from
    /// `first` up to `first + count - 1` (a 200-byte pad each): what the slow-consumer tests flood with.
    static func hotKeyWrites(from first: Int, count: Int) -> String {
        let payload = String(repeating: "p", count: 200)
        let members = (first..<(first + count)).map { value in
            #"{"jsonrpc":"2.0","id":\#(value),"method":"query.set","#
                + #""params":{"key":["hot"],"data":{"n":\#(value),"pad":"\#(payload)"}}}"#
        }
        return "[" + members.joined(separator: ",") + "]"
    }
}
