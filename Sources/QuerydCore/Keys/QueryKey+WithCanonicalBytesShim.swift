// Temporary shim: `withCanonicalBytes` as the inline-key branch defines it, over today's storage.
// Deleted when that branch (which adds the real method) is merged.

extension QueryKey {
    /// Calls `body` with the key's canonical bytes (valid only during the call).
    func withCanonicalBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try canonical.withUnsafeBytes(body)
    }
}
