// Looking a query up by the canonical bytes of its key, without building the key's values (the
// `query.get` fast path reads them straight from the request line).

extension QueryCache {
    /// The cached query whose key has these canonical bytes (compact JSON with object members
    /// sorted, strings in NFC and numbers in `JSONNumber.writeIdentity` text), if any.
    public func query(canonicalKeyBytes bytes: [UInt8]) -> Query? {
        queries[QueryKey(lookingUp: bytes)]
    }

    /// The `query.get` answer (`Query.getAnswer`) of the query whose key has these canonical
    /// bytes, if it is cached and has data. (One lookup, without handing the query out.)
    public func getAnswer(canonicalKeyBytes bytes: [UInt8]) -> [UInt8]? {
        queries[QueryKey(lookingUp: bytes)]?.getAnswer
    }
}
