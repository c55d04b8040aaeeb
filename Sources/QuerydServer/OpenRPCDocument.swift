// The OpenRPC 1.3.0 description of queryd protocol 2, which `rpc.discover` serves.
// Its text is protocol/openrpc.json, compiled in as `OpenRPCDocument.text` by the EmbedOpenRPC
// build-tool plugin (Plugins/). `rpc.discover` serves it restricted to the dispatcher's method table
// (plus `$/cancelRequest`), so the listed methods always equal the served ones; a test checks that
// every method is documented.

/// The machine-readable description of the wire protocol, served by `rpc.discover`.
///
/// See protocol/README.md for the prose specification; every method here has a page under
/// protocol/methods/.
enum OpenRPCDocument {
    /// Methods that exist only when a `queryd serve` flag is on: method name to gate name (the same
    /// as each method's `x-gate` in the document).
    ///
    /// `manual-clock` is `--manual-clock`; `test-methods` is `--test-methods`.
    static let gatedMethods: [String: String] = [
        "clock.advance": "manual-clock",
        "clock.now": "manual-clock",
        "test.echo": "test-methods",
        "test.getData": "test-methods",
        "test.subtract": "test-methods",
        "test.sum": "test-methods",
    ]
}
