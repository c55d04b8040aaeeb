// The OpenRPC 1.3.0 description of queryd protocol 2, which `rpc.discover` serves.
// Its text is protocol/openrpc.json, compiled in as `OpenRPCDocument.text` by the EmbedOpenRPC
// build-tool plugin (Plugins/). `rpc.discover` serves it restricted to the dispatcher's method table
// (plus `$/cancelRequest`), so the listed methods always equal the served ones; a test checks that
// every method is documented. Gated methods carry `x-gate` in the document itself.

/// The machine-readable description of the wire protocol, served by `rpc.discover`.
///
/// See protocol/README.md for the prose specification; every method here has a page under
/// protocol/methods/.
enum OpenRPCDocument {}
