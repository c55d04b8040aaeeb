// The errors the integration harness throws: every one says what was expected and what happened.

/// A failure of the harness or of the daemon under test, with a human-readable explanation.
struct IntegrationError: Error, CustomStringConvertible {
    /// The broad class of failure, for callers that expect one of them.
    enum Kind { case timeout, endOfStream, other }

    /// The broad class of failure.
    let kind: Kind
    /// What went wrong, including the relevant wire lines.
    let description: String

    init(_ description: String, kind: Kind = .other) {
        self.kind = kind
        self.description = description
    }

    /// No line arrived before the deadline.
    static func timeout(_ what: String, seconds: Double) -> IntegrationError {
        IntegrationError("timed out after \(seconds) s waiting for \(what)", kind: .timeout)
    }

    /// The daemon closed the connection.
    static func endOfStream(_ what: String, partial: String) -> IntegrationError {
        IntegrationError(
            "connection closed by the daemon while waiting for \(what); unterminated tail: \(partial)",
            kind: .endOfStream)
    }

    /// A system call failed.
    static func system(_ call: String, errno code: Int32) -> IntegrationError {
        IntegrationError("\(call) failed: errno \(code)")
    }
}
