// Connection loss and recovery: fail what was waiting, reconnect with backoff, register everything again.

import Foundation
import QuerydJSON

extension QueryClient {
    /// Called when the current connection's reader reached end of file.
    func connectionEnded() {
        connection = nil
        serving.values.forEach { $0.cancel() }
        serving.removeAll()
        fetcherByServerID.removeAll()
        mutatorByServerID.removeAll()
        subscriptionByServerID.removeAll()
        for key in fetchers.keys { fetchers[key]?.serverID = nil }
        for key in mutators.keys { mutators[key]?.serverID = nil }
        for key in subscriptions.keys { subscriptions[key]?.serverID = nil }
        guard !isClosed else { return }
        let loss = QueryClientError.connectionLost("the daemon closed the connection")
        failPending(with: loss)
        for entry in subscriptions.values { entry.continuation.yield(.connectionLost(loss)) }
        emit(.disconnected(loss))
        guard reconnectPolicy.isEnabled, reconnectTask == nil else { return }
        reconnectTask = Task { await self.reconnectLoop() }
    }

    private func reconnectLoop() async {
        var delay = reconnectPolicy.initialDelay
        while !isClosed && !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            if isClosed || Task.isCancelled { break }
            if let opened = try? SocketConnection.open(path: socketPath) {
                attach(opened)
                let restored = await restoreRegistrations()
                if restored {
                    reconnectTask = nil
                    emit(.reconnected)
                    return
                }
                // The new connection failed during the restore; its reader end starts over below.
            }
            delay = min(delay * 2, reconnectPolicy.maxDelay)
        }
        reconnectTask = nil
    }

    /// Registers fetchers and mutators, then subscriptions, on the new connection. Returns false when the
    /// connection dropped meanwhile.
    private func restoreRegistrations() async -> Bool {
        for (local, entry) in fetchers.sorted(by: { $0.key < $1.key }) {
            guard await restore("fetcher.register", entry.params, .fetcher(local: local)) else { return false }
        }
        for (local, entry) in mutators.sorted(by: { $0.key < $1.key }) {
            guard await restore("mutator.register", entry.params, .mutator(local: local)) else { return false }
        }
        for (local, entry) in subscriptions.sorted(by: { $0.key < $1.key }) {
            let params = QueryClient.subscribeParams(key: entry.key, options: entry.options)
            guard await restore("query.subscribe", params, .subscription(local: local)) else { return false }
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

    static func subscribeParams(key: JSONValue, options: QueryOptions) -> JSONValue {
        var params: [String: JSONValue] = ["key": key]
        if !options.isEmpty { params["options"] = options.jsonValue }
        return .object(params)
    }
}
