// Fetchers (and mutators, ClusterCoordinator+Mutators.swift) serving the whole cluster. Each node
// announces its clients' registrations in its heartbeat; the others register them in their engines
// under a proxy connection per node, so the engine's own longest-prefix choice (and its failover when
// a fetcher goes) covers every node. A request the engine sends to a proxy is published on that
// node's channel; the node sends it to its local fetcher and relays the answer, `fetch.progress` and
// (the other way) cancellation.

import QuerydCore
import QuerydJSON
import QuerydRPC

extension ClusterCoordinator {
    /// The fetcher registrations of this node's own clients (proxies left out), for the heartbeat.
    var localFetchers: [ClusterMessage.Advert] { Self.adverts(of: cache.fetcherRegistrations) }

    /// The mutator registrations of this node's own clients (proxies left out), for the heartbeat.
    var localMutators: [ClusterMessage.Advert] { Self.adverts(of: server.mutations.mutatorRegistrations) }

    private static func adverts(of registrations: [Registration]) -> [ClusterMessage.Advert] {
        var adverts: [ClusterMessage.Advert] = []
        for registration in registrations where !ClusterPeers.isProxy(registration.connection) {
            let advert = ClusterMessage.Advert(
                prefix: registration.prefix, exact: registration.exact, cancellable: registration.cancellable)
            if !adverts.contains(advert) { adverts.append(advert) }
        }
        return adverts
    }

    /// Sends a request the engine decided (after the lease) to its fetcher: a local one on its own
    /// connection, another node's through that node's channel.
    func deliver(_ request: FetchRequest) {
        guard let node = peers.node(forProxy: request.connection) else {
            server.sendFetchLocally(request)
            return
        }
        forwards.outgoing[request.attempt] = node
        let fetch = ClusterMessage.ForwardedFetch(
            key: request.key, attemptNumber: request.attemptNumber, meta: request.meta, page: ClusterPage(request.page))
        send(.fetchRequest(id: request.attempt.rawValue, request: fetch), to: node)
    }

    /// Registers `node`'s fetchers and mutators in the engine under a new proxy connection (the old
    /// one goes, failing what was in flight to it, as a closed connection's registrations do).
    func offerRegistrations(of node: String, fetchers: [ClusterMessage.Advert], mutators: [ClusterMessage.Advert]) {
        let (proxy, old) = peers.replaceProxy(of: node)
        closeProxy(of: node, old)
        for fetcher in fetchers {
            _ = cache.registerFetcher(
                connection: proxy, prefix: fetcher.prefix, exact: fetcher.exact, cancellable: fetcher.cancellable,
                defaults: QueryOptions())
        }
        for mutator in mutators {
            _ = server.mutations.registerMutator(connection: proxy, prefix: mutator.prefix, exact: mutator.exact)
        }
    }

    /// `node`'s registrations are gone (it left, or they changed): the engine fails the attempts
    /// sent to them, and retries them elsewhere as their `retry` allows.
    func closeProxy(of node: String, _ proxy: ConnectionID?) {
        guard let proxy else { return }
        forwards.forget(node: node)
        mutateForwards.forget(node: node)
        cache.connectionClosed(proxy)
        server.mutations.connectionClosed(proxy)
        releaseAbandonedLeases()
    }

    /// The engine withdrew an attempt sent to another node: that node withdraws it from its fetcher.
    func withdrawForwarded(_ attempt: AttemptID) {
        guard let node = forwards.outgoing.removeValue(forKey: attempt) else { return }
        send(.fetchCancel(id: attempt.rawValue), to: node)
    }

    /// Another node's answer to an attempt of this engine.
    func forwardedAnswered(_ attempt: AttemptID, _ answer: Result<JSONValue, ClusterMessage.FetchError>) {
        guard forwards.outgoing.removeValue(forKey: attempt) != nil else { return }
        switch answer {
        case .success(let result):
            cache.attemptSucceeded(attempt, answer: result)
            fetchAnswered(attempt, answer: result, error: nil)
        case .failure(let error):
            cache.attemptFailed(attempt, error: error.object)
            fetchAnswered(attempt, answer: nil, error: error.object)
        }
    }

    // MARK: - Fetches forwarded here

    /// `origin` asks this node's fetcher for a key: sent to the local fetcher the engine's rule
    /// chooses (proxies left out), or answered with -32002 when none serves it any more.
    func serveForwarded(from origin: String, id: Int, _ fetch: ClusterMessage.ForwardedFetch) {
        let key = fetch.key
        guard let fetcher = cache.fetcher(for: key, eligible: { !ClusterPeers.isProxy($0) }) else {
            let error = RPCError(.noFetcher, "No fetcher on node \(nodeId)", data: ["key": key.jsonValue])
            send(.fetchAnswer(id: id, answer: .failure(.init(error.jsonValue))), to: origin)
            return
        }
        let attempt = forwards.accept(.init(origin: origin, id: id, connection: fetcher.connection))
        server.sendFetchLocally(
            FetchRequest(
                attempt: attempt, fetcher: FetcherID(fetcher.id), connection: fetcher.connection, key: key,
                attemptNumber: fetch.attemptNumber, meta: fetch.meta,
                page: fetch.page.map { ($0.param, $0.direction) }))
    }

    /// A local fetcher answered a fetch forwarded here: the answer goes back to its origin.
    /// Returns whether `attempt` was one.
    func relayAnswer(_ attempt: AttemptID, answer: JSONValue?, error: JSONValue?) -> Bool {
        guard let incoming = forwards.finish(attempt) else { return false }
        let relayed = ClusterMessage.FetchError.outcome(answer: answer, error: error)
        send(.fetchAnswer(id: incoming.id, answer: relayed), to: incoming.origin)
        return true
    }

    /// A local fetcher's `fetch.progress` for a fetch forwarded here goes to its origin.
    func fetchProgressed(_ attempt: AttemptID, data: JSONValue) {
        guard let incoming = forwards.incoming[attempt] else { return }
        send(.fetchProgress(id: incoming.id, data: data), to: incoming.origin)
    }

    /// The origin no longer wants its forwarded fetch `id`: the local fetcher gets `$/cancelRequest`.
    func cancelForwarded(from origin: String, id: Int) {
        guard let attempt = forwards.attempt(origin: origin, id: id), let incoming = forwards.finish(attempt) else {
            return
        }
        server.cancelFetchLocally(attempt, connection: incoming.connection)
    }

    /// A local connection closed: the leases of attempts sent to its fetchers go, and the fetches
    /// forwarded to its fetchers fail at their origins (which retry them elsewhere as their `retry`
    /// allows).
    func connectionClosed(_ connection: ConnectionID) {
        releaseAbandonedLeases()
        for incoming in forwards.finishAll(on: connection) {
            let error = RPCError(.noFetcher, "Fetcher disconnected")
            send(.fetchAnswer(id: incoming.id, answer: .failure(.init(error.jsonValue))), to: incoming.origin)
        }
        for incoming in mutateForwards.finishAll(on: connection) {
            let error = RPCError(.noFetcher, "Mutator disconnected")
            send(.mutateAnswer(id: incoming.id, answer: .failure(.init(error.jsonValue))), to: incoming.origin)
        }
    }

    /// PUBLISHes a message on `node`'s own channel (dropped while the link is down).
    func send(_ body: ClusterMessage.Body, to node: String) {
        guard joined else { return }
        let payload = ClusterMessage(origin: nodeId, body: body).encoded
        countOut()
        bus.send([Array("PUBLISH".utf8), layout.nodeChannel(node), payload]) { _ in }
    }
}
