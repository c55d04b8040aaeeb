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
        "echo", "enabled", "gcTime", "infinite", "initialData", "initialDataUpdatedAt", "meta", "networkMode",
        "notifyOnChangeProps",
        "placeholderData", "push", "refetchInterval", "refetchIntervalInBackground", "refetchOn", "refetchOnFocus",
        "refetchOnReconnect", "refetchOnSubscribe", "retry", "retryDelay", "retryOnMount", "select", "staleTime",
        "timeout",
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
            case "retry": retry = try RetrySetting(json: member, field: field)
            case "retryDelay": retryDelay = try RetryDelay(json: member, field: field)
            case "refetchOnSubscribe":
                guard let text = member.stringValue, let mode = RefetchOnSubscribe(rawValue: text) else {
                    throw OptionsError(field: field, reason: "must be \"always\", \"ifStale\" or \"never\"")
                }
                refetchOnSubscribe = mode
            case "meta": meta = member
            case "timeout": timeout = try Self.milliseconds(member, field: field)
            case "initialData": initialData = member
            case "initialDataUpdatedAt": initialDataUpdatedAt = try Self.milliseconds(member, field: field)
            case "placeholderData": placeholderData = member == .string("previous") ? .previous : .value(member)
            case "refetchOnFocus": refetchOnFocus = try Self.trigger(member, field: field)
            case "refetchOnReconnect": refetchOnReconnect = try Self.trigger(member, field: field)
            case "refetchInterval":
                switch member {
                case .null, .bool(false): refetchInterval = .some(nil)
                default: refetchInterval = .some(try Self.milliseconds(member, field: field))
                }
            case "networkMode": networkMode = try NetworkMode(json: member, field: field)
            case "retryOnMount":
                guard case .bool(let b) = member else { throw OptionsError(field: field, reason: "must be a boolean") }
                retryOnMount = b
            case "refetchIntervalInBackground":
                guard case .bool(let b) = member else { throw OptionsError(field: field, reason: "must be a boolean") }
                refetchIntervalInBackground = b
            case "notifyOnChangeProps":
                if member == .string("all") {
                    notifyOnChangeProps = nil
                    continue
                }
                let names = try Self.strings(member, field: field)
                if let unknown = names.first(where: { !QueryResult.fieldNames.contains($0) }) {
                    throw OptionsError(
                        field: field, reason: "\"\(EchoedText.shortened(unknown))\" is not a state field")
                }
                notifyOnChangeProps = names
            case "refetchOn": refetchOn = try Self.strings(member, field: field)
            case "push":
                guard let text = member.stringValue, let mode = PushMode(rawValue: text) else {
                    throw OptionsError(field: field, reason: "must be \"state\", \"meta\" or \"patch\"")
                }
                push = mode
            case "echo":
                guard case .bool(let b) = member else { throw OptionsError(field: field, reason: "must be a boolean") }
                echo = b
            case "select":
                guard let text = member.stringValue else {
                    throw OptionsError(field: field, reason: "must be a JSON Pointer string")
                }
                do { select = try JSONPointer(text) } catch { throw OptionsError(field: field, reason: error.message) }
            case "infinite": infinite = try Self.infinite(member, field: field)
            default:
                throw OptionsError(
                    field: field,
                    reason: "unknown option; supported: \(Self.supportedNames.joined(separator: ", "))")
            }
        }
    }

    private static func trigger(_ value: JSONValue, field: String) throws(OptionsError) -> RefetchTrigger {
        switch value {
        case .bool(true): return .ifStale
        case .bool(false): return .never
        case .string("always"): return .always
        default: throw OptionsError(field: field, reason: "must be true, false or \"always\"")
        }
    }

    private static func strings(_ value: JSONValue, field: String) throws(OptionsError) -> [String] {
        guard case .array(let items) = value else {
            throw OptionsError(field: field, reason: "must be an array of strings")
        }
        var names: [String] = []
        for item in items {
            guard let name = item.stringValue else {
                throw OptionsError(field: field, reason: "must be an array of strings")
            }
            names.append(name)
        }
        return names
    }

    private static func infinite(_ value: JSONValue, field: String) throws(OptionsError) -> InfiniteOptions {
        guard case .object(let members) = value else { throw OptionsError(field: field, reason: "must be an object") }
        guard let initial = members["initialPageParam"] else {
            throw OptionsError(field: "\(field).initialPageParam", reason: "required (any JSON value, null included)")
        }
        var maxPages: Int?
        for (name, member) in members where name != "initialPageParam" {
            guard name == "maxPages" else {
                throw OptionsError(field: "\(field).\(name)", reason: "unknown; supported: initialPageParam, maxPages")
            }
            guard let n = member.intValue, n > 0 else {
                throw OptionsError(field: "\(field).maxPages", reason: "must be a positive integer")
            }
            maxPages = n
        }
        return InfiniteOptions(initialPageParam: initial, maxPages: maxPages)
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
