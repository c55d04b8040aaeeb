// A session's requests to its client: a `fetch` request per fetch attempt of the query cache and a
// `mutate` request per mutate attempt of the mutation cache, their withdrawal (`$/cancelRequest`),
// `fetch.progress`, and the answers, routed back to the engine that made the attempt. Which request
// carries which attempt is kept in `outgoing` (`OutgoingRequests`).

import QuerydCore
import QuerydJSON
import QuerydRPC

extension Session {
    /// Sends a `fetch` request for a fetch attempt.
    func send(_ request: FetchRequest) {
        var params: [String: JSONValue] = [
            "fetcher": .number(JSONNumber(request.fetcher.rawValue)), "key": request.key.jsonValue,
            "attempt": .number(JSONNumber(request.attemptNumber)),
        ]
        if let meta = request.meta { params["meta"] = meta }
        if let page = request.page {
            params["pageParam"] = page.param
            params["direction"] = .string(page.direction.rawValue)
        }
        sendRequest(method: "fetch", params: .object(params), for: .fetch(request.attempt))
    }

    /// Sends a `mutate` request for a mutate attempt.
    func send(_ request: MutateRequest) {
        let params: JSONValue = [
            "mutator": .number(JSONNumber(request.mutator.rawValue)), "key": request.key.jsonValue,
            "variables": request.variables, "attempt": .number(JSONNumber(request.attemptNumber)),
        ]
        sendRequest(method: "mutate", params: params, for: .mutate(request.attempt))
    }

    /// Sends a request to this client for `attempt`; its answer goes to the attempt's engine (unless
    /// the attempt is withdrawn or the connection closes first).
    private func sendRequest(method: String, params: JSONValue, for attempt: OutgoingAttempt) {
        let id = outgoing.open(attempt)
        outbox.appendLine { RPCWriter.request(id: .number(JSONNumber(id)), method: method, params: params, to: &$0) }
        server.markDirty(self)
    }

    /// Tells the client its answer for `attempt` is no longer wanted (`$/cancelRequest`).
    func cancel(_ attempt: OutgoingAttempt) {
        guard let id = outgoing.withdraw(attempt) else { return }
        outbox.appendLine {
            RPCWriter.notification(method: "$/cancelRequest", params: ["id": .number(JSONNumber(id))], to: &$0)
        }
        server.markDirty(self)
    }

    /// `fetch.progress {id, data}` from a fetcher: partial data for the fetch request `id`.
    func progress(_ params: JSONValue?) {
        guard let id = params?["id"]?.intValue, let data = params?["data"],
            case .fetch(let attempt)? = outgoing.attempt(forRequest: id)
        else { return }
        server.cache.attemptProgressed(attempt, data: data)
        server.cluster?.fetchProgressed(attempt, data: data)
        server.applyEffects()
    }

    /// An answer to one of our requests. Unknown or late ids are ignored (and logged).
    func handle(response: RPCResponse) {
        guard case .number(let number) = response.id, let id = number.intValue,
            let attempt = outgoing.answered(id)
        else {
            server.logger.debug(
                "ignored a response to an unknown request id \(response.id) on connection \(connection)")
            return
        }
        deliver(response.outcome, to: attempt)
    }

    /// Gives the answer to a request (already forgotten by `outgoing`) to its attempt's engine.
    func deliver(_ outcome: Result<JSONValue, RPCError>, to attempt: OutgoingAttempt) {
        switch (attempt, outcome) {
        case (.fetch(let attempt), .success(let answer)):
            server.cache.attemptSucceeded(attempt, answer: answer)
            server.cluster?.fetchAnswered(attempt, answer: answer, error: nil)
        case (.fetch(let attempt), .failure(let error)):
            server.cache.attemptFailed(attempt, error: error.jsonValue)
            server.cluster?.fetchAnswered(attempt, answer: nil, error: error.jsonValue)
        case (.mutate(let attempt), .success(let answer)):
            server.mutations.attemptSucceeded(attempt, answer: answer)
            server.cluster?.mutateAnswered(attempt, answer: answer, error: nil)
        case (.mutate(let attempt), .failure(let error)):
            server.mutations.attemptFailed(attempt, error: error.jsonValue)
            server.cluster?.mutateAnswered(attempt, answer: nil, error: error.jsonValue)
        }
        server.applyEffects()
    }
}
