// The reading side of the client: replies, the daemon's requests (fetch, mutate) and notifications.

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
        guard case .number(let number) = response.id, let id = number.intValue,
            let call = pending.removeValue(forKey: id)
        else { return }
        switch response.outcome {
        case .success(let result):
            if let binding = call.binding { apply(binding, result: result) }
            call.continuation.resume(returning: .success(result))
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
        case .subscription(let local):
            guard let serverID = result["subscription"]?.intValue else { return }
            guard let entry = subscriptions[local] else {
                notify("query.unsubscribe", ["subscription": .number(JSONNumber(serverID))])
                return
            }
            subscriptions[local]?.serverID = serverID
            subscriptionByServerID[serverID] = local
            if let state = result["state"].flatMap({ try? QueryState(json: $0) }) {
                entry.continuation.yield(.state(state))
            }
        }
    }

    private func handleNotification(_ notification: RPCNotification) {
        let params = notification.params
        switch notification.method {
        case "query.changed":
            guard let serverID = params?["subscription"]?.intValue, let local = subscriptionByServerID[serverID],
                let entry = subscriptions[local], let raw = params?["state"],
                let state = try? QueryState(json: raw)
            else { return }
            entry.continuation.yield(.state(state))
        case "$/cancelRequest":
            guard let id = params?["id"]?.intValue else { return }
            serving.removeValue(forKey: id)?.cancel()
        default:
            break
        }
    }

    private func handleRequest(_ request: RPCRequest) {
        let params = request.params ?? [:]
        switch request.method {
        case "fetch":
            guard let serverID = params["fetcher"]?.intValue, let local = fetcherByServerID[serverID],
                let entry = fetchers[local], let key = params["key"]
            else {
                reply(request.id, .failure(RPCError(.unknownID, "unknown fetcher")))
                return
            }
            let handler = entry.handler
            let pageParam = params["pageParam"]
            serve(request.id) { try await handler(key, pageParam).jsonValue }
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
            reply(request.id, .failure(RPCError(.methodNotFound)))
        }
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
