// Mutators serving the whole cluster, as fetchers do (ClusterCoordinator+Forwarding.swift): a
// mutate attempt the engine sends to another node's proxy is published on that node's channel; the
// node sends it to its local mutator and relays the answer, and (the other way) the withdrawal.

import QuerydCore
import QuerydJSON
import QuerydRPC

extension ClusterCoordinator {
    /// Sends a mutate request the engine decided to its mutator: a local one on its own
    /// connection, another node's through that node's channel.
    func mutate(_ request: MutateRequest) {
        guard let node = peers.node(forProxy: request.connection) else {
            server.sendMutateLocally(request)
            return
        }
        mutateForwards.outgoing[request.attempt] = node
        let body = ClusterMessage.Body.mutateRequest(
            id: request.attempt.rawValue, key: request.key, variables: request.variables,
            attemptNumber: request.attemptNumber)
        send(body, to: node)
    }

    /// The engine withdrew a mutate attempt: one sent to another node is withdrawn there.
    func mutateWithdrawn(_ attempt: MutationAttemptID) {
        guard let node = mutateForwards.outgoing.removeValue(forKey: attempt) else { return }
        send(.mutateCancel(id: attempt.rawValue), to: node)
    }

    /// Another node's answer to a mutate attempt of this engine.
    func forwardedMutationAnswered(
        _ attempt: MutationAttemptID, _ answer: Result<JSONValue, ClusterMessage.FetchError>
    ) {
        guard mutateForwards.outgoing.removeValue(forKey: attempt) != nil else { return }
        switch answer {
        case .success(let result): server.mutations.attemptSucceeded(attempt, answer: result)
        case .failure(let error): server.mutations.attemptFailed(attempt, error: error.object)
        }
    }

    /// `origin` asks this node's mutator to run an attempt: sent to the local mutator the engine's
    /// rule chooses (proxies left out), or answered with -32002 when none serves the key any more.
    func serveForwardedMutation(from origin: String, id: Int, key: QueryKey, variables: JSONValue, attemptNumber: Int) {
        guard let mutator = server.mutations.mutator(for: key, eligible: { !ClusterPeers.isProxy($0) }) else {
            let error = RPCError(.noFetcher, "No mutator on node \(nodeId)", data: ["key": key.jsonValue])
            send(.mutateAnswer(id: id, answer: .failure(.init(error.jsonValue))), to: origin)
            return
        }
        let attempt = mutateForwards.accept(.init(origin: origin, id: id, connection: mutator.connection))
        server.sendMutateLocally(
            MutateRequest(
                attempt: attempt, mutator: MutatorID(mutator.id), connection: mutator.connection, key: key,
                variables: variables, attemptNumber: attemptNumber))
    }

    /// A local mutator answered a mutate attempt: one forwarded here goes back to its origin.
    func mutateAnswered(_ attempt: MutationAttemptID, answer: JSONValue?, error: JSONValue?) {
        guard let incoming = mutateForwards.finish(attempt) else { return }
        let relayed = ClusterMessage.FetchError.outcome(answer: answer, error: error)
        send(.mutateAnswer(id: incoming.id, answer: relayed), to: incoming.origin)
    }

    /// The origin no longer wants its forwarded mutate attempt `id`: the local mutator gets
    /// `$/cancelRequest`.
    func cancelForwardedMutation(from origin: String, id: Int) {
        guard let attempt = mutateForwards.attempt(origin: origin, id: id),
            let incoming = mutateForwards.finish(attempt)
        else { return }
        server.cancelMutateLocally(attempt, connection: incoming.connection)
    }
}
