// The modules whose types a client user must name (JSONValue, JSONNumber, RPCError, RPCErrorCode) are
// re-exported, so `import QuerydClient` alone is enough.
//
// `@_exported import` rather than typealiases: a typealias per type would miss the literal conformances,
// subscripts and accessors that QuerydJSON declares in extensions (they need the module imported under
// Swift 6's member-import rules) and would have to be kept in step with both modules by hand.

@_exported public import QuerydJSON
@_exported public import QuerydRPC
