// The reading side of the client: replies, the daemon's requests (fetch, mutate) and notifications. It
// reads tolerantly: unknown members and notifications are ignored, unknown requests answered -32601.

import QuerydJSON
import QuerydRPC

extension QueryClient {
    /// Makes `opened` the current connection and starts consuming its reader's stream.
    func attach(_ opened: SocketConnection) {
        generation += 1
        let current = generation
        connection = opened
        let lines = opened.startReading()
        Task { await self.consume(lines, of: opened, generation: current) }
    }

    private func consume(_ lines: AsyncStream<JSONValue>, of opened: SocketConnection, generation current: Int) async {
        for await value in lines {
            guard current == generation else { continue }
            handle(value)
        }
        opened.close()
        guard current == generation else { return }
        connectionEnded()
    }

    private func handle(_ value: JSONValue) {
        switch RPCDecoding.frame(value) {
        case .single(let single): handleMessage(single)
        case .batch(let values): values.forEach(handleMessage)
        }
    }

    private func handleMessage(_ value: JSONValue) {
        guard case .success(let message) = RPCDecoding.decode(value) else { return }
        switch message {
        case .response(let response): handleResponse(response)
        case .request(let request): handleRequest(request)
        case .notification(let notification): handleNotification(notification)
        }
    }

    private func handleResponse(_ response: RPCResponse) {
        if response.id == .null, case .failure(let error) = response.outcome {
            // An error the daemon could not tie to a request (e.g. -32008 before it closes): the likely reason
            // of what follows.
            closingReason = "\(error.code.rawValue) \(error.message)\(error.data.map { " \($0.encodedString)" } ?? "")"
            return
        }
        guard case .number(let number) = response.id, let id = number.intValue,
            let call = pending.removeValue(forKey: id)
        else { return }
        switch response.outcome {
        case .success(let result):
            if let binding = call.binding { apply(binding, result: result) }
            call.continuation.resume(returning: .success(result))
        case .failure(let error) where call.isResendable && reconnectPolicy.isEnabled && error.isShutdown:
            parked[id] = call  // The daemon is stopping: ask the next one after the reconnect.
        case .failure(let error):
            call.continuation.resume(returning: .failure(.server(error)))
        }
    }

    private func apply(_ binding: Binding, result: JSONValue) {
        switch binding {
        case .fetcher(let local):
            guard let serverID = result["fetcher"]?.intValue else { return }
            if fetchers[local] != nil {
                fetchers[local]?.serverID = serverID
                fetcherByServerID[serverID] = local
            } else {
                notify("fetcher.unregister", ["fetcher": .number(JSONNumber(serverID))])
            }
        case .mutator(let local):
            guard let serverID = result["mutator"]?.intValue else { return }
            if mutators[local] != nil {
                mutators[local]?.serverID = serverID
                mutatorByServerID[serverID] = local
            } else {
                notify("mutator.unregister", ["mutator": .number(JSONNumber(serverID))])
            }
        case .watch(let local):
            bindWatch(local, result: result)
        case .subscription(let local, let freshStart):
            guard let serverID = result["subscription"]?.intValue else { return }
            guard subscriptions[local] != nil else {
                notify("query.unsubscribe", ["subscription": .number(JSONNumber(serverID))])
                return
            }
            subscriptions[local]?.serverID = serverID
            subscriptionByServerID[serverID] = local
            if let state = result["state"] { receiveFullState(state, for: local, freshStart: freshStart) }
        }
    }

    private func handleNotification(_ notification: RPCNotification) {
        let params = notification.params
        switch notification.method {
        case "query.changed":
            guard let params, let serverID = params["subscription"]?.intValue,
                let local = subscriptionByServerID[serverID]
            else { return }
            receivePush(params, for: local)
        case "cache.changed":
            if let params { receiveWatchEvents(params) }
        case "count.changed":
            guard let serverID = params?["subscription"]?.intValue, let count = params?["count"]?.intValue else {
                return
            }
            countWatches[serverID]?.yield(count)
        case "$/cancelRequest":
            guard let id = params?["id"]?.intValue else { return }
            serving.removeValue(forKey: id)?.cancel()
        case "$/closing":
            let reason = params?["reason"]?.stringValue ?? "closing"
            closingReason = params?["limit"]?.stringValue.map { "\(reason) (limit \($0))" } ?? reason
        default:
            break  // Unknown notifications are ignored (tolerant reader).
        }
    }

    private func handleRequest(_ request: RPCRequest) {
        let params = request.params ?? [:]
        switch request.method {
        case "fetch":
            guard let serverID = params["fetcher"]?.intValue, let local = fetcherByServerID[serverID],
                let entry = fetchers[local], let key = params["key"], case .number(let number) = request.id,
                let id = number.intValue
            else {
                reply(request.id, .failure(RPCError(.unknownID, "unknown fetcher")))
                return
            }
            let handler = entry.handler
            let current = generation
            let fetch = FetchRequest(params: params, key: key) { data in
                await self.sendProgress(data, forRequest: id, generation: current)
            }
            serve(request.id) { try await handler(fetch).jsonValue }
        case "mutate":
            guard let serverID = params["mutator"]?.intValue, let local = mutatorByServerID[serverID],
                let entry = mutators[local], let key = params["key"]
            else {
                reply(request.id, .failure(RPCError(.unknownID, "unknown mutator")))
                return
            }
            let handler = entry.handler
            let variables = params["variables"] ?? .null
            serve(request.id) { .object(["data": try await handler(key, variables)]) }
        default:
            reply(request.id, .failure(RPCError(.methodNotFound, data: ["method": .string(request.method)])))
        }
    }

    /// `fetch.progress`: one streamed chunk (the whole data so far) while the `fetch` request `id` is served
    /// on the connection it came from.
    private func sendProgress(_ data: JSONValue, forRequest id: Int, generation served: Int) {
        guard served == generation, serving[id] != nil else { return }
        notify("fetch.progress", ["id": .number(JSONNumber(id)), "data": data])
    }

    /// Runs a handler in its own task and answers the daemon's request when it finishes (unless the daemon
    /// cancelled the request or the connection changed meanwhile).
    private func serve(_ id: RPCID, _ work: @escaping @Sendable () async throws -> JSONValue) {
        guard case .number(let number) = id, let key = number.intValue else { return }
        let current = generation
        let task = Task {
            let outcome: Result<JSONValue, RPCError>
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(HandlerError.object(for: error))
            }
            self.finishServing(key, generation: current, outcome: outcome)
        }
        serving[key] = task
    }

    private func finishServing(_ id: Int, generation served: Int, outcome: Result<JSONValue, RPCError>) {
        guard served == generation, serving.removeValue(forKey: id) != nil else { return }
        reply(.number(JSONNumber(id)), outcome)
    }

    private func reply(_ id: RPCID, _ outcome: Result<JSONValue, RPCError>) {
        var line: [UInt8] = []
        switch outcome {
        case .success(let result):
            RPCWriter.result(id: id, result: result, to: &line)
        case .failure(let error):
            RPCWriter.error(id: id, error: error, to: &line)
        }
        line.append(0x0A)
        try? connection?.write(line)
    }
}
