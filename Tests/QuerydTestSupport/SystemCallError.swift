// The error the shared test helpers throw when a system call fails.

/// A failed system call and its errno.
public struct SystemCallError: Error, CustomStringConvertible, Sendable {
    /// The call and its subject, e.g. `connect /tmp/q.sock`.
    public let call: String
    /// The errno it failed with.
    public let code: Int32

    /// A failure of `call` with errno `code`.
    public init(_ call: String, errno code: Int32) {
        self.call = call
        self.code = code
    }

    public var description: String { "\(call) failed: errno \(code)" }
}
