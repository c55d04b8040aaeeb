// Every documented queryd error code as one Swift case, named as in the Python and Node clients.

public import QuerydRPC

extension RPCError {
    /// The documented error codes (protocol/errors.md), one case each. The names are the other clients'
    /// class names in lower camel case (`NoFetcher` is ``noFetcher``); any other code has no case and is
    /// only an ``RPCError``.
    ///
    /// ```swift
    /// do { _ = try await client.fetch(["todos"]) }
    /// catch let error where error.code == .noFetcher { ... }
    /// ```
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// -32700 `ParseError`: a line that is not JSON.
        case parseError = -32700
        /// -32600 `InvalidRequest`: not a valid request object (also a duplicate pending id, `"id": null`).
        case invalidRequest = -32600
        /// -32601 `MethodNotFound`: no such method.
        case methodNotFound = -32601
        /// -32602 `InvalidParams`: the params do not fit the method (`data.field` names the member).
        case invalidParams = -32602
        /// -32603 `InternalError`: a failure inside the daemon.
        case internalError = -32603
        /// -32001 `FetchFailed`: the fetch failed after its retries; `data` is the fetcher's error.
        case fetchFailed = -32001
        /// -32002 `NoFetcher`: no fetcher registered for the key before the timeout (`data.retryable`).
        case noFetcher = -32002
        /// -32003 `CancelledByServer`: cancelled, reset or removed, or the daemon is shutting down
        /// (`data.reason` `"shutdown"`, retryable after a reconnect).
        case cancelledByServer = -32003
        /// -32004 `AttemptTimeout`: an attempt's `timeout` expired.
        case attemptTimeout = -32004
        /// -32005 `UnknownID`: an unknown subscription, fetcher, mutator or mutation id.
        case unknownID = -32005
        /// -32006 `LimitExceeded`: a server limit (`data.limit` names it; `data.retryable`).
        case limitExceeded = -32006
        /// -32007 `MutationFailed`: the mutation failed after its retries; `data` is the mutator's error.
        case mutationFailed = -32007
        /// -32008 `PermissionDenied`: the daemon does not admit this uid (sent with `"id": null`, then it closes).
        case permissionDenied = -32008
        /// -32009 `VersionConflict`: `query.set` with `ifVersion` found another version; `data` is
        /// `{key, version}` with the current version (0 when the key is not cached).
        case versionConflict = -32009
        /// -32800 `RequestCancelled`: the request was cancelled by its sender (`$/cancelRequest`).
        case requestCancelled = -32800
    }

    /// The documented code of this error, nil for any other code.
    public var knownCode: Code? { Code(rawValue: code.rawValue) }

    /// `data.retryable`: whether trying again (after `retryAfter`, or after a reconnect) may succeed.
    public var isRetryable: Bool { data?["retryable"]?.boolValue ?? false }

    /// -32003 with `data.reason` `"shutdown"`: the daemon is stopping; the call may succeed after a reconnect.
    public var isShutdown: Bool { code.rawValue == Code.cancelledByServer.rawValue && data?["reason"] == "shutdown" }

    /// `data.retryAfterMs` in seconds, when the daemon knows it.
    public var retryAfter: Double? { data?["retryAfterMs"]?.doubleValue.map { $0 / 1000 } }
}
