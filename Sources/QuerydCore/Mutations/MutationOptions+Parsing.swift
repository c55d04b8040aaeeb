// Reads `mutation.run`'s options from their JSON form; anything malformed or unknown is an
// `OptionsError` naming the field (reported as -32602).

public import QuerydJSON

extension MutationOptions {
    /// The option names this version understands.
    public static let supportedNames: [String] = [
        "gcTime", "invalidate", "meta", "networkMode", "optimistic", "retry", "retryDelay", "scope", "setData",
        "timeout",
    ]

    /// Parses `value` (an object, or nil for none); `path` prefixes field names in errors.
    public init(json value: JSONValue?, path: String = "options") throws(OptionsError) {
        self.init()
        guard let value, !value.isNull else { return }
        guard case .object(let members) = value else { throw OptionsError(field: path, reason: "must be an object") }
        source = value
        for (name, member) in members {
            let field = "\(path).\(name)"
            switch name {
            case "retry": retry = try RetrySetting(json: member, field: field)
            case "retryDelay": retryDelay = try RetryDelay(json: member, field: field)
            case "networkMode": networkMode = try NetworkMode(json: member, field: field)
            case "timeout": timeout = try Self.milliseconds(member, field: field)
            case "gcTime": gcTime = member.isNull ? nil : try Self.milliseconds(member, field: field)
            case "scope":
                guard let text = member.stringValue else {
                    throw OptionsError(field: field, reason: "must be a string")
                }
                scope = text
            case "meta": meta = member
            case "optimistic":
                optimistic = try Self.items(member, field: field).enumerated().map {
                    (index, item) throws(OptionsError) in try Self.optimisticWrite(item, field: "\(field)[\(index)]")
                }
            case "invalidate":
                invalidate = try Self.items(member, field: field).enumerated().map {
                    (index, item) throws(OptionsError) in try QueryFilter(json: item, path: "\(field)[\(index)]")
                }
            case "setData":
                setData = try Self.items(member, field: field).enumerated().map {
                    (index, item) throws(OptionsError) in try Self.resultWrite(item, field: "\(field)[\(index)]")
                }
            default:
                throw OptionsError(
                    field: field, reason: "unknown option; supported: \(Self.supportedNames.joined(separator: ", "))")
            }
        }
    }

    private static func items(_ value: JSONValue, field: String) throws(OptionsError) -> [JSONValue] {
        guard case .array(let items) = value else { throw OptionsError(field: field, reason: "must be an array") }
        return items
    }

    private static func members(_ value: JSONValue, field: String, allowed: [String]) throws(OptionsError)
        -> [String: JSONValue]
    {
        guard case .object(let members) = value else { throw OptionsError(field: field, reason: "must be an object") }
        for name in members.keys where !allowed.contains(name) {
            throw OptionsError(
                field: "\(field).\(name)", reason: "unknown member; expected \(allowed.joined(separator: ", "))")
        }
        return members
    }

    private static func key(_ members: [String: JSONValue], field: String) throws(OptionsError) -> QueryKey {
        guard let value = members["key"] else { throw OptionsError(field: "\(field).key", reason: "required") }
        do { return try QueryKey(value) } catch { throw OptionsError(field: "\(field).key", reason: error.message) }
    }

    /// `{key, data}` or `{key, mergePatch}`.
    private static func optimisticWrite(_ value: JSONValue, field: String) throws(OptionsError) -> OptimisticWrite {
        let members = try members(value, field: field, allowed: ["key", "data", "mergePatch"])
        let key = try key(members, field: field)
        switch (members["data"], members["mergePatch"]) {
        case (let data?, nil): return OptimisticWrite(key: key, write: .data(data))
        case (nil, let patch?): return OptimisticWrite(key: key, write: .mergePatch(patch))
        default: throw OptionsError(field: "\(field).data", reason: "give exactly one of data and mergePatch")
        }
    }

    /// `{key, fromResult: "/json/pointer"}`.
    private static func resultWrite(_ value: JSONValue, field: String) throws(OptionsError) -> ResultWrite {
        let members = try members(value, field: field, allowed: ["key", "fromResult"])
        let key = try key(members, field: field)
        guard let text = members["fromResult"]?.stringValue else {
            throw OptionsError(field: "\(field).fromResult", reason: "required: a JSON Pointer string")
        }
        do {
            return ResultWrite(key: key, fromResult: try JSONPointer(text))
        } catch {
            throw OptionsError(field: "\(field).fromResult", reason: error.message)
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
