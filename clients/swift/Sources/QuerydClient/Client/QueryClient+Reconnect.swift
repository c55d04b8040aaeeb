// Connection loss and recovery: fail or park what was waiting, reconnect with backoff and jitter, negotiate,
// register everything again, then re-send the parked idempotent calls.

import QuerydJSON

// FoundationEssentials where it exists (Linux): full Foundation loads ICU, which costs every program that
// links the client about 6 ms of start-up (measured on `queryd`, release build).
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension QueryClient {
    /// Called when the current connection's reader reached end of file.
    func connectionEnded() {
        connection = nil
        serving.values.forEach { $0.cancel() }
        serving.removeAll()
        fetcherByServerID.removeAll()
        mutatorByServerID.removeAll()
        subscriptionByServerID.removeAll()
        // A count watch is not restored after a reconnect: its stream ends.
        countWatches.values.forEach { $0.finish() }
        countWatches.removeAll()
        for key in fetchers.keys { fetchers[key]?.serverID = nil }
        for key in mutators.keys { mutators[key]?.serverID = nil }
        for key in subscriptions.keys {
            subscriptions[key]?.serverID = nil
            subscriptions[key]?.base = nil
            subscriptions[key]?.heldPushes = nil
        }
        guard !isClosed else { return }
        let loss = QueryClientError.connectionLost(closingReason ?? "the daemon closed the connection")
        closingReason = nil
        let willReconnect = reconnectPolicy.isEnabled && hasConnectedOnce
        let waiting = pending
        pending.removeAll()
        for (id, call) in waiting {
            if willReconnect && call.isResendable {
                parked[id] = call
            } else {
                call.continuation.resume(returning: .failure(loss))
            }
        }
        for entry in subscriptions.values { entry.continuation.yield(.connectionLost(loss)) }
        watchesLost(loss)
        emit(.disconnected(loss))
        guard willReconnect, reconnectTask == nil else { return }
        reconnectTask = Task { await self.reconnectLoop() }
    }

    private func reconnectLoop() async {
        var attempt = 0
        while !isClosed && !Task.isCancelled {
            let delay = reconnectPolicy.delay(afterFailedAttempts: attempt)
            emit(.reconnecting(attempt: attempt + 1, delay: delay))
            try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            if isClosed || Task.isCancelled { break }
            if let opened = try? SocketConnection.open(path: socketPath) {
                attach(opened)
                if await restore() {
                    reconnectTask = nil
                    emit(.reconnected)
                    resendParked()
                    return
                }
                // The new connection failed during the restore; its reader end starts over below.
            }
            attempt += 1
        }
        reconnectTask = nil
    }

    /// Negotiates, then registers fetchers and mutators, then subscriptions, on the new connection. Returns
    /// false when the connection dropped meanwhile.
    private func restore() async -> Bool {
        let previousEpoch = serverInfo?.epoch
        do {
            try await negotiate()
        } catch {
            if case .server = error { return connection != nil }  // A refusing daemon: keep what it serves.
            return false
        }
        let freshStart = previousEpoch != nil && serverInfo?.epoch != previousEpoch
        for (local, entry) in fetchers.sorted(by: { $0.key < $1.key }) {
            guard await restore("fetcher.register", entry.params, .fetcher(local: local)) else { return false }
        }
        for (local, entry) in mutators.sorted(by: { $0.key < $1.key }) {
            guard await restore("mutator.register", entry.params, .mutator(local: local)) else { return false }
        }
        for (local, entry) in subscriptions.sorted(by: { $0.key < $1.key }) {
            let params = QueryClient.subscribeParams(key: entry.key, options: entry.options)
            let binding = Binding.subscription(local: local, freshStart: freshStart)
            guard await restore("query.subscribe", params, binding) else { return false }
        }
        for (local, entry) in watches.sorted(by: { $0.key < $1.key }) {
            guard await restore("cache.watch", entry.params, .watch(local: local)) else { return false }
        }
        return connection != nil
    }

    private func restore(_ method: String, _ params: JSONValue, _ binding: Binding) async -> Bool {
        do {
            _ = try await request(method, params, binding: binding)
            return true
        } catch {
            if case .server = error { return true }  // The daemon refused this one; keep restoring the rest.
            return false
        }
    }

    /// Sends the idempotent calls that were waiting when the last connection dropped, with their own ids.
    private func resendParked() {
        let calls = parked.sorted { $0.key < $1.key }
        parked.removeAll()
        for (id, call) in calls {
            pending[id] = call
            do throws(QueryClientError) {
                try connection?.write(call.line)
            } catch {
                connection?.shutdown()
            }
        }
    }

    static func subscribeParams(key: JSONValue, options: QueryOptions) -> JSONValue {
        var params: [String: JSONValue] = ["key": key]
        if !options.isEmpty { params["options"] = options.jsonValue }
        return .object(params)
    }
}
