// The daemon's limits and switches, as given on the `queryd serve` command line.

/// Settings of a `Server`; every limit is a command-line flag with the default shown here.
public struct ServerConfiguration: Sendable {
    /// The longest message line accepted, in bytes; a longer one gets -32600 and the connection closes.
    public var maxMessageBytes = 16 * 1024 * 1024
    /// The deepest JSON nesting accepted in a message.
    public var maxDepth = 128
    /// Connections served at once; further ones are told so and closed.
    public var maxConnections = 1024
    /// Serve `clock.advance` / `clock.now` over a manual clock.
    public var manualClock = false
    /// Serve the JSON-RPC conformance fixtures `test.*`.
    public var testMethods = false
    /// The version reported by `server.hello`.
    public var version = "0.1.0"

    public init() {}
}
