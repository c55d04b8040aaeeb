// An Observation-based handle for running one kind of mutation and showing its last outcome.

public import Observation
public import QuerydJSON

/// A mutation's status as this observer saw it.
public enum MutationStatus: String, Sendable, Hashable {
    /// Not run yet (or reset).
    case idle
    /// Running.
    case pending
    /// The last run succeeded.
    case success
    /// The last run failed.
    case error
}

/// Runs mutations with one key through the daemon (`mutation.run`) and publishes the last run's outcome
/// on the main actor. The result data is decoded into `Value` (use `JSONValue` for raw data).
@MainActor
@Observable
public final class MutationObserver<Value: Sendable> {
    /// The client mutations run through.
    @ObservationIgnored public let client: QueryClient
    /// The mutation key, as JSON.
    @ObservationIgnored public let key: JSONValue
    /// Options sent with every run.
    public var options: MutationOptions
    /// idle, pending, success or error.
    public private(set) var status: MutationStatus = .idle
    /// The last successful result.
    public private(set) var data: Value?
    /// The last failure (``QueryClientError/server(_:)`` with -32007 when the mutator failed).
    public private(set) var error: QueryClientError?
    /// The variables of the last run.
    public private(set) var variables: JSONValue?

    @ObservationIgnored private let decode: @Sendable (JSONValue) throws(QueryClientError) -> Value
    @ObservationIgnored private var runNumber = 0

    /// An observer whose results are decoded with `JSONDecoder`.
    public init(
        client: QueryClient, key: some QueryKey, options: MutationOptions = MutationOptions(), as type: Value.Type
    ) throws(QueryClientError) where Value: Decodable {
        self.client = client
        self.key = try KeyEncoding.json(key)
        self.options = options
        self.decode = { (raw) throws(QueryClientError) in try JSONCoding.decode(Value.self, from: raw) }
    }

    /// An observer of raw JSON results.
    public init(client: QueryClient, key: some QueryKey, options: MutationOptions = MutationOptions())
        throws(QueryClientError) where Value == JSONValue
    {
        self.client = client
        self.key = try KeyEncoding.json(key)
        self.options = options
        self.decode = { raw in raw }
    }

    /// Not run yet.
    public var isIdle: Bool { status == .idle }
    /// Running.
    public var isPending: Bool { status == .pending }
    /// The last run succeeded.
    public var isSuccess: Bool { status == .success }
    /// The last run failed.
    public var isError: Bool { status == .error }

    /// Runs the mutation with `variables` and returns the decoded result; the properties follow the run.
    /// When runs overlap, the properties show the latest one.
    @discardableResult
    public func mutate(_ variables: JSONValue = .null) async throws(QueryClientError) -> Value {
        runNumber += 1
        let run = runNumber
        self.variables = variables
        status = .pending
        error = nil
        do throws(QueryClientError) {
            let raw = try await client.mutate(JSONKey(key.arrayValue ?? []), variables: variables, options: options)
            let value = try decode(raw)
            if run == runNumber {
                data = value
                status = .success
            }
            return value
        } catch {
            if run == runNumber {
                self.error = error
                status = .error
            }
            throw error
        }
    }

    /// Runs the mutation with variables encoded from any Encodable value.
    @discardableResult
    public func mutate(encoding variables: some Encodable) async throws(QueryClientError) -> Value {
        try await mutate(try JSONCoding.encode(variables))
    }

    /// Back to idle: clears data, error and variables (a run in flight no longer updates the properties).
    public func reset() {
        runNumber += 1
        status = .idle
        data = nil
        error = nil
        variables = nil
    }
}
