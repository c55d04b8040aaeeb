// Errors of the transport layer: a libuv status code with its name, message and what was being attempted.
import CLibUV

/// A failed transport operation, described by a libuv error code (a negative errno on Unix).
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// The libuv status code (negative), e.g. `UV_ECONNREFUSED`.
    public let code: Int32
    /// The symbolic name of the code, e.g. `"ECONNREFUSED"`.
    public let name: String
    /// The human-readable message of the code, e.g. `"connection refused"`.
    public let message: String
    /// What the transport was doing, e.g. `"bind /tmp/queryd.sock"`.
    public let context: String

    /// Builds an error from a libuv status code.
    init(code: Int32, context: String) {
        self.code = code
        self.name = String(cString: uv_err_name(code))
        self.message = String(cString: uv_strerror(code))
        self.context = context
    }

    /// Builds an error from a C library `errno` value.
    init(errno value: Int32, context: String) {
        self.init(code: uv_translate_sys_error(value), context: context)
    }

    /// `"<context>: <name> (<message>)"`.
    public var description: String {
        "\(context): \(name) (\(message))"
    }
}

/// The single checkpoint every libuv call's result passes through: a negative status becomes a `TransportError`.
/// Returns the (non-negative) result unchanged.
@discardableResult
@inline(__always)
func uvCheck(_ result: Int32, _ context: @autoclosure () -> String) throws(TransportError) -> Int32 {
    if result < 0 {
        throw TransportError(code: result, context: context())
    }
    return result
}

/// `uvCheck` for call sites that cannot throw: returns the error instead, or `nil` on success.
@inline(__always)
func uvFailure(_ result: Int32, _ context: @autoclosure () -> String) -> TransportError? {
    do {
        try uvCheck(result, context())
        return nil
    } catch {
        return error
    }
}

/// `uvCheck` for calls libuv documents as failing only on misuse (e.g. `uv_timer_init`): a failure is a bug.
@inline(__always)
func uvMustSucceed(_ result: Int32, _ context: @autoclosure () -> String) {
    if let failure = uvFailure(result, context()) {
        preconditionFailure("libuv call cannot fail here: \(failure)")
    }
}
