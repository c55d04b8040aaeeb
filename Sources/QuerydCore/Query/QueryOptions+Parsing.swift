// Reads query options from their JSON form, rejecting anything this version does not serve.

public import QuerydJSON

/// A query option that is malformed or unknown; reported to clients as invalid params.
public struct OptionsError: Error, Sendable, Equatable {
    /// The offending field, e.g. `options.staleTime`.
    public let field: String
    public let reason: String
}

extension QueryOptions {
    /// The option names this version understands.
    public static let supportedNames: [String] = [
        "enabled", "gcTime", "initialData", "initialDataUpdatedAt", "meta", "placeholderData", "refetchOnSubscribe",
        "retry", "retryDelay", "select", "staleTime", "timeout",
    ]

    /// Parses `value` (an object, or nil for none); `path` prefixes field names in errors.
    public init(json value: JSONValue?, path: String = "options") throws(OptionsError) {
        self.init()
        guard let value, !value.isNull else { return }
        guard case .object(let members) = value else {
            throw OptionsError(field: path, reason: "must be an object")
        }
        for (name, member) in members {
            let field = "\(path).\(name)"
            switch name {
            case "enabled":
                guard case .bool(let b) = member else { throw OptionsError(field: field, reason: "must be a boolean") }
                enabled = b
            case "staleTime":
                switch member {
                case .string("static"): staleTime = .static
                case .string("Infinity"): staleTime = .infinity
                default: staleTime = .milliseconds(try Self.milliseconds(member, field: field))
                }
            case "gcTime":
                switch member {
                case .null, .string("Infinity"): gcTime = .some(nil)
                default: gcTime = .some(try Self.milliseconds(member, field: field))
                }
            case "retry":
                switch member {
                case .bool(false): retry = .count(0)
                case .bool(true): retry = .forever
                default: retry = .count(Int(try Self.milliseconds(member, field: field, what: "a count")))
                }
            case "retryDelay": retryDelay = try Self.milliseconds(member, field: field)
            case "refetchOnSubscribe":
                guard let text = member.stringValue, let mode = RefetchOnSubscribe(rawValue: text) else {
                    throw OptionsError(field: field, reason: "must be \"always\", \"ifStale\" or \"never\"")
                }
                refetchOnSubscribe = mode
            case "meta": meta = member
            case "timeout": timeout = try Self.milliseconds(member, field: field)
            case "initialData": initialData = member
            case "initialDataUpdatedAt": initialDataUpdatedAt = try Self.milliseconds(member, field: field)
            case "placeholderData": placeholderData = member
            case "select":
                guard let text = member.stringValue else {
                    throw OptionsError(field: field, reason: "must be a JSON Pointer string")
                }
                do { select = try JSONPointer(text) } catch { throw OptionsError(field: field, reason: error.message) }
            default:
                throw OptionsError(
                    field: field,
                    reason: "unknown option; supported: \(Self.supportedNames.joined(separator: ", "))")
            }
        }
    }

    private static func milliseconds(_ value: JSONValue, field: String, what: String = "milliseconds")
        throws(OptionsError) -> Int64
    {
        guard case .number(let n) = value, let v = n.int64Value, v >= 0 else {
            throw OptionsError(field: field, reason: "must be a non-negative integer (\(what))")
        }
        return v
    }
}
