// Fetchers, mutators, mutations and subscriptions: everything this client registers with the daemon.

public import QuerydJSON

extension QueryClient {
    /// Serves `fetch` for keys starting with `prefix` (or equal to it, with `exact`). `defaults` act as query
    /// defaults for that prefix; with `cancellable`, an abandoned fetch cancels the handler's task.
    /// The registration is restored after a reconnect.
    @discardableResult
    public func registerFetcher(
        _ prefix: some QueryKey, exact: Bool = false, cancellable: Bool = false, defaults: QueryOptions? = nil,
        fetch: @escaping FetcherHandler
    ) async throws(QueryClientError) -> Registration {
        try await registerFetcher(prefix, exact: exact, cancellable: cancellable, defaults: defaults) { request in
            try await fetch(request.key, request.pageParam)
        }
    }

    /// Like ``registerFetcher(_:exact:cancellable:defaults:fetch:)``, with a handler that receives the whole
    /// ``FetchRequest`` and can stream chunks with ``FetchRequest/progress(_:)``.
    @discardableResult
    public func registerFetcher(
        _ prefix: some QueryKey, exact: Bool = false, cancellable: Bool = false, defaults: QueryOptions? = nil,
        serve fetch: @escaping StreamingFetcherHandler
    ) async throws(QueryClientError) -> Registration {
        var params: [String: JSONValue] = [
            "key": try KeyEncoding.json(prefix), "exact": .bool(exact), "cancellable": .bool(cancellable),
        ]
        if let defaults, !defaults.isEmpty { params["defaults"] = defaults.jsonValue }
        let local = takeLocalID()
        fetchers[local] = FetcherEntry(params: .object(params), handler: fetch)
        do {
            _ = try await request("fetcher.register", .object(params), binding: .fetcher(local: local))
        } catch {
            fetchers[local] = nil
            throw error
        }
        return Registration(id: local)
    }

    /// The daemon's id for a fetcher or mutator registration on the current connection (it changes when the
    /// client registers again after a reconnect); nil while the registration is not in place.
    public func daemonID(of registration: Registration) -> Int? {
        fetchers[registration.id]?.serverID ?? mutators[registration.id]?.serverID
    }

    /// Stops serving a fetcher registration.
    public func unregisterFetcher(_ registration: Registration) async throws(QueryClientError) {
        guard let entry = fetchers.removeValue(forKey: registration.id), let serverID = entry.serverID else { return }
        fetcherByServerID[serverID] = nil
        _ = try await request("fetcher.unregister", ["fetcher": .number(JSONNumber(serverID))], binding: nil)
    }

    /// Serves `mutate` for mutation keys starting with `prefix`; restored after a reconnect.
    @discardableResult
    public func registerMutator(
        _ prefix: some QueryKey, exact: Bool = false, mutate: @escaping MutatorHandler
    ) async throws(QueryClientError) -> Registration {
        let params: JSONValue = ["key": try KeyEncoding.json(prefix), "exact": .bool(exact)]
        let local = takeLocalID()
        mutators[local] = MutatorEntry(params: params, handler: mutate)
        do {
            _ = try await request("mutator.register", params, binding: .mutator(local: local))
        } catch {
            mutators[local] = nil
            throw error
        }
        return Registration(id: local)
    }

    /// Stops serving a mutator registration.
    public func unregisterMutator(_ registration: Registration) async throws(QueryClientError) {
        guard let entry = mutators.removeValue(forKey: registration.id), let serverID = entry.serverID else { return }
        mutatorByServerID[serverID] = nil
        _ = try await request("mutator.unregister", ["mutator": .number(JSONNumber(serverID))], binding: nil)
    }

    /// `mutation.run`: runs a mutation through the daemon and returns its result data. A failure after
    /// retries throws ``QueryClientError/server(_:)`` with code -32007 and the mutator's error as `data`.
    public func mutate(
        _ key: some QueryKey, variables: JSONValue = .null, options: MutationOptions = MutationOptions()
    ) async throws(QueryClientError) -> JSONValue {
        var params: [String: JSONValue] = ["key": try KeyEncoding.json(key), "variables": variables]
        if options.jsonValue != [:] { params["options"] = options.jsonValue }
        let result = try await request("mutation.run", .object(params), binding: nil)
        guard let data = result["data"] else { throw .invalidResponse("mutation.run: \(result.encodedString)") }
        return data
    }

    /// `query.subscribe`: the subscription's states arrive on its stream, starting with the initial one.
    /// The subscription is restored after a reconnect; ``unsubscribe(_:)`` (or ending the stream) closes it.
    public func subscribe(_ key: some QueryKey, options: QueryOptions = QueryOptions()) async throws(QueryClientError)
        -> QuerySubscription
    {
        let keyJSON = try KeyEncoding.json(key)
        let local = takeLocalID()
        let (stream, continuation) = AsyncStream.makeStream(of: SubscriptionEvent.self)
        subscriptions[local] = SubscriptionEntry(key: keyJSON, options: options, continuation: continuation)
        let result: JSONValue
        do {
            result = try await request(
                "query.subscribe", QueryClient.subscribeParams(key: keyJSON, options: options),
                binding: .subscription(local: local, freshStart: false))
        } catch {
            subscriptions[local] = nil
            continuation.finish()
            throw error
        }
        continuation.onTermination = { _ in Task { await self.closeSubscription(local) } }
        guard let raw = result["state"] else { throw .invalidResponse("query.subscribe: \(result.encodedString)") }
        return QuerySubscription(id: local, key: keyJSON, initialState: try QueryState(json: raw), events: stream)
    }

    /// `query.unsubscribe`; the subscription's stream ends.
    public func unsubscribe(_ subscription: QuerySubscription) async {
        await closeSubscription(subscription.id)
    }

    /// `query.refetch {subscription}` for one of this client's subscriptions.
    @discardableResult
    public func refetch(_ subscription: QuerySubscription, cancelRefetch: Bool = true) async throws(QueryClientError)
        -> QueryState
    {
        try await stateCall(
            "query.refetch", ["subscription": try serverID(of: subscription), "cancelRefetch": .bool(cancelRefetch)])
    }

    /// `query.fetchNextPage {subscription}`: fetches the page after the last one.
    @discardableResult
    public func fetchNextPage(_ subscription: QuerySubscription) async throws(QueryClientError) -> QueryState {
        try await stateCall("query.fetchNextPage", ["subscription": try serverID(of: subscription)])
    }

    /// `query.fetchPreviousPage {subscription}`: fetches the page before the first one.
    @discardableResult
    public func fetchPreviousPage(_ subscription: QuerySubscription) async throws(QueryClientError) -> QueryState {
        try await stateCall("query.fetchPreviousPage", ["subscription": try serverID(of: subscription)])
    }

    /// `query.setOptions`: replaces the subscription's options and, with `key`, moves it to that query (as
    /// `useQuery` does when its key changes). Both are kept for reconnects; later states carry the new key.
    @discardableResult
    public func setOptions(
        _ subscription: QuerySubscription, _ options: QueryOptions, key: (some QueryKey)? = JSONKey?.none
    ) async throws(QueryClientError) -> QueryState {
        let id = try serverID(of: subscription)
        var params: [String: JSONValue] = ["subscription": id, "options": options.jsonValue]
        let newKey = try key.map { (key) throws(QueryClientError) in try KeyEncoding.json(key) }
        if let newKey { params["key"] = newKey }
        subscriptions[subscription.id]?.options = options
        if let newKey { subscriptions[subscription.id]?.key = newKey }
        subscriptions[subscription.id]?.base = nil
        let state = try await stateCall("query.setOptions", .object(params))
        remember(state, for: subscription.id)
        return state
    }

    private func serverID(of subscription: QuerySubscription) throws(QueryClientError) -> JSONValue {
        guard let entry = subscriptions[subscription.id] else { throw .invalidKey("the subscription is closed") }
        guard let serverID = entry.serverID else { throw .notConnected }
        return .number(JSONNumber(serverID))
    }

    func closeSubscription(_ local: Int) async {
        guard let entry = subscriptions.removeValue(forKey: local) else { return }
        entry.continuation.finish()
        guard let serverID = entry.serverID else { return }
        subscriptionByServerID[serverID] = nil
        _ = try? await request("query.unsubscribe", ["subscription": .number(JSONNumber(serverID))], binding: nil)
    }
}
