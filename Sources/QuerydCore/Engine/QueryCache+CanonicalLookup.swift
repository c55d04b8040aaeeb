// Looking a query up by the canonical bytes of its key, without building the key's values (the
// `query.get` fast path reads them straight from the request line).

extension QueryCache {
    /// The cached query whose key has these canonical bytes (compact JSON with object members
    /// sorted, strings in NFC and numbers in `JSONNumber.writeIdentity` text), if any.
    public func query(canonicalKeyBytes bytes: [UInt8]) -> Query? {
        bytes.withUnsafeBytes { queries.element(canonicalBytes: $0) }
    }
}
