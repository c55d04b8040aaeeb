// An Observation-based view of one subscription, for SwiftUI or any code that tracks @Observable objects.

public import Observation
public import QuerydJSON
public import QuerydRPC

/// Observes one query: ``start()`` subscribes, and every state the daemon pushes updates the observable
/// properties on the main actor. Data is decoded into `Value` (use `JSONValue` for raw data).
///
/// ```swift
/// let todos = try QueryObserver(client: client, key: ["todos"], as: [Todo].self)
/// try await todos.start()
/// // todos.data, todos.isLoading, todos.error ... are tracked by SwiftUI or withObservationTracking.
/// ```
@MainActor
@Observable
public final class QueryObserver<Value: Sendable> {
    /// The client this observer subscribes through.
    @ObservationIgnored public let client: QueryClient
    /// The key, as JSON (changed by ``setOptions(_:key:)``).
    public private(set) var key: JSONValue
    /// The options sent with the subscription.
    public private(set) var options: QueryOptions
    /// The last state received, nil before ``start()`` answered.
    public private(set) var state: QueryState?
    /// The data decoded from the state's data.
    public private(set) var data: Value?
    /// Why the state's data could not be decoded into `Value`, if it could not.
    public private(set) var decodingError: QueryClientError?
    /// Set while the connection is lost; cleared by the first state after the reconnect.
    public private(set) var connectionError: QueryClientError?

    @ObservationIgnored private let decode: @Sendable (JSONValue) throws(QueryClientError) -> Value
    @ObservationIgnored private var subscription: QuerySubscription?
    @ObservationIgnored private var listener: Task<Void, Never>?

    /// An observer whose data is decoded with `JSONDecoder`.
    public init(
        client: QueryClient, key: some QueryKey, options: QueryOptions = QueryOptions(), as type: Value.Type
    ) throws(QueryClientError) where Value: Decodable {
        self.client = client
        self.key = try KeyEncoding.json(key)
        self.options = options
        self.decode = { (raw) throws(QueryClientError) in try JSONCoding.decode(Value.self, from: raw) }
    }

    /// An observer of the raw JSON data.
    public init(client: QueryClient, key: some QueryKey, options: QueryOptions = QueryOptions())
        throws(QueryClientError) where Value == JSONValue
    {
        self.client = client
        self.key = try KeyEncoding.json(key)
        self.options = options
        self.decode = { raw in raw }
    }

    /// An observer with a custom decoder (used by ``InfiniteQueryObserver``).
    init(
        client: QueryClient, keyJSON: JSONValue, options: QueryOptions,
        decode: @escaping @Sendable (JSONValue) throws(QueryClientError) -> Value
    ) {
        self.client = client
        self.key = keyJSON
        self.options = options
        self.decode = decode
    }

    /// The last final error of the query.
    public var error: RPCError? { state?.error }
    /// True until the query has data or a final error (also before ``start()``).
    public var isPending: Bool { state?.isPending ?? true }
    /// Pending and fetching: the first load.
    public var isLoading: Bool { state?.isLoading ?? false }
    /// A fetch is under way.
    public var isFetching: Bool { state?.isFetching ?? false }
    /// A fetch is under way while data (or an error) is shown.
    public var isRefetching: Bool { state?.isRefetching ?? false }
    /// The last outcome was data.
    public var isSuccess: Bool { state?.isSuccess ?? false }
    /// The last fetch failed.
    public var isError: Bool { state?.isError ?? false }
    /// The data is stale for this observer's staleTime.
    public var isStale: Bool { state?.isStale ?? false }
    /// The data shown is the placeholder.
    public var isPlaceholderData: Bool { state?.isPlaceholderData ?? false }
    /// pending, success or error.
    public var status: QueryStatus { state?.status ?? .pending }
    /// idle, fetching or paused.
    public var fetchStatus: FetchStatus { state?.fetchStatus ?? .idle }

    /// Subscribes (once) and applies the initial state before returning.
    public func start() async throws(QueryClientError) {
        guard subscription == nil else { return }
        let opened = try await client.subscribe(JSONKey(key.arrayValue ?? []), options: options)
        subscription = opened
        apply(opened.initialState)
        listener = Task { [weak self] in
            for await event in opened.events {
                guard let self else { return }
                self.handle(event)
            }
        }
    }

    /// Unsubscribes; the properties keep their last values.
    public func stop() async {
        listener?.cancel()
        listener = nil
        if let subscription { await client.unsubscribe(subscription) }
        subscription = nil
    }

    /// `query.refetch` for this observer's subscription; the settled state is applied and returned.
    @discardableResult
    public func refetch() async throws(QueryClientError) -> QueryState {
        guard let subscription else { throw .notConnected }
        let settled = try await client.refetch(subscription)
        apply(settled)
        return settled
    }

    /// Replaces the subscription's options and, with `key`, switches it to another query (`query.setOptions`),
    /// as `useQuery` does when its key changes. The new query's states replace the old one's; pass
    /// `placeholderData: "previous"` to keep showing the old data until the new query has its own.
    public func setOptions(
        _ newOptions: QueryOptions, key newKey: (some QueryKey)? = JSONKey?.none
    ) async throws(QueryClientError) {
        let keyJSON = try newKey.map { (key) throws(QueryClientError) in try KeyEncoding.json(key) }
        options = newOptions
        if let keyJSON, keyJSON != key {
            key = keyJSON
            lastVersion = 0  // Versions count per query.
        }
        guard let subscription else { return }
        apply(try await client.setOptions(subscription, newOptions, key: keyJSON.map { JSONKey($0.arrayValue ?? []) }))
    }

    /// The subscription, for calls that take one (nil before ``start()``).
    public var currentSubscription: QuerySubscription? { subscription }

    private func handle(_ event: SubscriptionEvent) {
        switch event {
        case .state(let received): apply(received)
        case .connectionLost(let error):
            connectionError = error
            lastVersion = 0  // A new daemon counts versions afresh.
        }
    }

    @ObservationIgnored private var lastVersion: Int64 = 0

    /// Applies a state unless it is older than the one shown (replies and pushes may cross).
    func apply(_ received: QueryState) {
        if received.isFreshStart { lastVersion = 0 }
        if received.version < lastVersion || received.key != key { return }
        lastVersion = received.version
        connectionError = nil
        if state != received { state = received }
        guard let raw = received.data else {
            if data != nil { data = nil }
            return
        }
        do throws(QueryClientError) {
            data = try decode(raw)
            if decodingError != nil { decodingError = nil }
        } catch {
            decodingError = error
        }
    }
}
