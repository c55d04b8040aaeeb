// The messages nodes publish on the namespace channel, and their JSON encoding (one object per
// message, with the layout version and the sender's node id).

public import QuerydCore
public import QuerydJSON

/// One message on the namespace channel.
public struct ClusterMessage: Equatable {
    /// What the message says.
    public enum Body: Equatable {
        /// A write made on the sender (a `queries.*` method or `query.set`), to apply with `params`.
        case write(method: String, params: JSONValue)
        /// The sender's fetch of `key` (it held the lease) settled with this data.
        case settled(key: QueryKey, data: JSONValue, dataUpdatedAt: Int64)
        /// The sender's fetch attempt of `key` failed with this error object.
        case failed(key: QueryKey, error: JSONValue)
        /// The sender gave up the lease of `key` without an outcome (its attempt was withdrawn).
        case released(key: QueryKey)
        /// The sender is alive (sent every heartbeat).
        case hello
    }

    /// The sender's node id.
    public var origin: String
    public var body: Body

    public init(origin: String, body: Body) {
        self.origin = origin
        self.body = body
    }

    /// The message as one JSON object.
    public var encoded: [UInt8] {
        var object: [String: JSONValue] = ["v": .number(JSONNumber(ClusterLayout.version)), "from": .string(origin)]
        switch body {
        case .write(let method, let params):
            object["type"] = "write"
            object["method"] = .string(method)
            object["params"] = params
        case .settled(let key, let data, let updatedAt):
            object["type"] = "settled"
            object["key"] = key.jsonValue
            object["data"] = data
            object["dataUpdatedAt"] = .number(JSONNumber(updatedAt))
        case .failed(let key, let error):
            object["type"] = "failed"
            object["key"] = key.jsonValue
            object["error"] = error
        case .released(let key):
            object["type"] = "released"
            object["key"] = key.jsonValue
        case .hello:
            object["type"] = "hello"
        }
        return JSONValue.object(object).encoded
    }

    /// Why a payload is not a message of this layout.
    public enum DecodingError: Error, Equatable {
        case notJSON, otherVersion(JSONValue?), malformed(String)
    }

    /// Reads a message; another layout version or a malformed one is an error (and is ignored).
    public init(decoding payload: [UInt8]) throws(DecodingError) {
        guard let value = try? JSONParser.parse(payload) else { throw .notJSON }
        guard value["v"]?.intValue == ClusterLayout.version else { throw .otherVersion(value["v"]) }
        guard let origin = value["from"]?.stringValue, let type = value["type"]?.stringValue else {
            throw .malformed("from and type are required")
        }
        func key() throws(DecodingError) -> QueryKey {
            guard let member = value["key"], let key = try? QueryKey(member) else { throw .malformed("key") }
            return key
        }
        self.origin = origin
        switch type {
        case "write":
            guard let method = value["method"]?.stringValue, let params = value["params"] else {
                throw .malformed("write needs method and params")
            }
            body = .write(method: method, params: params)
        case "settled":
            guard let data = value["data"], let updatedAt = value["dataUpdatedAt"]?.intValue else {
                throw .malformed("settled needs data and dataUpdatedAt")
            }
            body = .settled(key: try key(), data: data, dataUpdatedAt: Int64(updatedAt))
        case "failed":
            guard let error = value["error"] else { throw .malformed("failed needs error") }
            body = .failed(key: try key(), error: error)
        case "released":
            body = .released(key: try key())
        case "hello":
            body = .hello
        default:
            throw .malformed("unknown type \(type)")
        }
    }
}
