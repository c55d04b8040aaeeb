// The messages nodes publish on the namespace channel, and their JSON encoding (one object per
// message, with the layout version and the sender's node id).

public import QuerydCore
public import QuerydJSON

/// One message on the namespace channel.
public struct ClusterMessage: Equatable {
    /// What the message says.
    public enum Body: Equatable {
        /// A write made on the sender (a `queries.*` method or `query.set`) at `at` (its clock), to
        /// apply with `params`.
        case write(method: String, params: JSONValue, at: Int64)
        /// The sender's fetch of `key` (it held the lease) settled with this data.
        case settled(key: QueryKey, data: JSONValue, dataUpdatedAt: Int64)
        /// The sender's fetch of `page` of the infinite query `key` (it held that page's lease) got
        /// this answer from its fetcher (`{"data": …, "nextPageParam"?: …, "previousPageParam"?: …}`).
        case pageSettled(key: QueryKey, page: ClusterPage, answer: JSONValue)
        /// The sender's fetch attempt of `key` (of its `page`) failed with this error object.
        case failed(key: QueryKey, error: JSONValue, page: ClusterPage? = nil)
        /// The sender gave up the lease of `key` (of its `page`) without an outcome (its attempt was
        /// withdrawn).
        case released(key: QueryKey, page: ClusterPage? = nil)
        /// The sender is alive (sent every heartbeat), with the fetchers and mutators its own
        /// clients registered; `joining` on the first one after it joined (others then send it
        /// again the writes they made while they were cut off, which it may have missed).
        case hello(fetchers: [Advert], mutators: [Advert], joining: Bool = false)
        /// To the node whose fetcher serves `key`: fetch it for the sender (its request `id`).
        case fetchRequest(id: Int, request: ForwardedFetch)
        /// To the node that forwarded request `id`: the fetcher's answer (`{"data": …}`) or error object.
        case fetchAnswer(id: Int, answer: Result<JSONValue, FetchError>)
        /// To the node that forwarded request `id`: a `fetch.progress` of the fetcher.
        case fetchProgress(id: Int, data: JSONValue)
        /// To the node serving request `id`: its answer is no longer wanted.
        case fetchCancel(id: Int)
        /// To the node whose mutator serves `key`: run this attempt for the sender (its request `id`).
        case mutateRequest(id: Int, key: QueryKey, variables: JSONValue, attemptNumber: Int)
        /// To the node that forwarded mutate request `id`: the mutator's answer or error object.
        case mutateAnswer(id: Int, answer: Result<JSONValue, FetchError>)
        /// To the node serving mutate request `id`: its answer is no longer wanted.
        case mutateCancel(id: Int)
    }

    /// What a forwarded fetch asks of the fetcher (a `fetch` request's params but the fetcher id).
    public struct ForwardedFetch: Equatable {
        public var key: QueryKey
        public var attemptNumber: Int
        public var meta: JSONValue?
        /// For a page of an infinite query: its page param and direction.
        public var page: ClusterPage?

        public init(key: QueryKey, attemptNumber: Int, meta: JSONValue?, page: ClusterPage? = nil) {
            self.key = key
            self.attemptNumber = attemptNumber
            self.meta = meta
            self.page = page
        }
    }

    /// A fetcher or mutator registration another node can forward to.
    public struct Advert: Equatable, Sendable {
        public var prefix: [JSONValue]
        public var exact: Bool
        public var cancellable: Bool

        public init(prefix: [JSONValue], exact: Bool, cancellable: Bool) {
            self.prefix = prefix
            self.exact = exact
            self.cancellable = cancellable
        }
    }

    /// A fetcher's or mutator's error object, as relayed.
    public struct FetchError: Error, Equatable {
        public var object: JSONValue
        public init(_ object: JSONValue) { self.object = object }

        /// The outcome to relay: the error object when there is one, else the answer.
        static func outcome(answer: JSONValue?, error: JSONValue?) -> Result<JSONValue, FetchError> {
            error.map { .failure(FetchError($0)) } ?? .success(answer ?? .null)
        }
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
        case .write(let method, let params, let at):
            object["type"] = "write"
            object["method"] = .string(method)
            object["params"] = params
            object["at"] = .number(JSONNumber(at))
        case .settled(let key, let data, let updatedAt):
            object["type"] = "settled"
            object["key"] = key.jsonValue
            object["data"] = data
            object["dataUpdatedAt"] = .number(JSONNumber(updatedAt))
        case .pageSettled(let key, let page, let answer):
            object["type"] = "pageSettled"
            object["key"] = key.jsonValue
            Self.write(page, to: &object)
            object["result"] = answer
        case .failed(let key, let error, let page):
            object["type"] = "failed"
            object["key"] = key.jsonValue
            object["error"] = error
            Self.write(page, to: &object)
        case .released(let key, let page):
            object["type"] = "released"
            object["key"] = key.jsonValue
            Self.write(page, to: &object)
        case .hello(let fetchers, let mutators, let joining):
            object["type"] = "hello"
            object["fetchers"] = .array(fetchers.map(\.jsonValue))
            object["mutators"] = .array(mutators.map(\.jsonValue))
            if joining { object["joining"] = true }
        case .fetchRequest(let id, let request):
            object["type"] = "fetchRequest"
            object["id"] = .number(JSONNumber(id))
            object["key"] = request.key.jsonValue
            object["attempt"] = .number(JSONNumber(request.attemptNumber))
            if let meta = request.meta { object["meta"] = meta }
            Self.write(request.page, to: &object)
        case .fetchAnswer(let id, let answer):
            object["type"] = "fetchAnswer"
            object["id"] = .number(JSONNumber(id))
            Self.write(answer, to: &object)
        case .fetchProgress(let id, let data):
            object["type"] = "fetchProgress"
            object["id"] = .number(JSONNumber(id))
            object["data"] = data
        case .fetchCancel(let id):
            object["type"] = "fetchCancel"
            object["id"] = .number(JSONNumber(id))
        case .mutateRequest(let id, let key, let variables, let attemptNumber):
            object["type"] = "mutateRequest"
            object["id"] = .number(JSONNumber(id))
            object["key"] = key.jsonValue
            object["variables"] = variables
            object["attempt"] = .number(JSONNumber(attemptNumber))
        case .mutateAnswer(let id, let answer):
            object["type"] = "mutateAnswer"
            object["id"] = .number(JSONNumber(id))
            Self.write(answer, to: &object)
        case .mutateCancel(let id):
            object["type"] = "mutateCancel"
            object["id"] = .number(JSONNumber(id))
        }
        return JSONValue.object(object).encoded
    }

    /// An answer's `result` or `error` member.
    private static func write(_ answer: Result<JSONValue, FetchError>, to object: inout [String: JSONValue]) {
        switch answer {
        case .success(let result): object["result"] = result
        case .failure(let error): object["error"] = error.object
        }
    }

    /// A page's `pageParam` and `direction` members (none for nil).
    private static func write(_ page: ClusterPage?, to object: inout [String: JSONValue]) {
        guard let page else { return }
        object["pageParam"] = page.param
        object["direction"] = .string(page.direction.rawValue)
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
        func answer() throws(DecodingError) -> Result<JSONValue, FetchError> {
            if let result = value["result"] { return .success(result) }
            guard let error = value["error"] else { throw .malformed("\(type) needs result or error") }
            return .failure(FetchError(error))
        }
        /// The `pageParam` and `direction` members (both or neither).
        func page() throws(DecodingError) -> ClusterPage? {
            guard let text = value["direction"] else { return nil }
            guard let direction = text.stringValue.flatMap(PageDirection.init(rawValue:)) else {
                throw .malformed("direction")
            }
            guard let param = value["pageParam"] else { throw .malformed("direction needs pageParam") }
            return ClusterPage(param: param, direction: direction)
        }
        func id() throws(DecodingError) -> Int {
            guard let id = value["id"]?.intValue else { throw .malformed("id") }
            return id
        }
        self.origin = origin
        switch type {
        case "write":
            guard let method = value["method"]?.stringValue, let params = value["params"],
                let at = value["at"]?.intValue
            else { throw .malformed("write needs method, params and at") }
            body = .write(method: method, params: params, at: Int64(at))
        case "settled":
            guard let data = value["data"], let updatedAt = value["dataUpdatedAt"]?.intValue else {
                throw .malformed("settled needs data and dataUpdatedAt")
            }
            body = .settled(key: try key(), data: data, dataUpdatedAt: Int64(updatedAt))
        case "failed":
            guard let error = value["error"] else { throw .malformed("failed needs error") }
            body = .failed(key: try key(), error: error, page: try page())
        case "released":
            body = .released(key: try key(), page: try page())
        case "pageSettled":
            guard let page = try page(), let answer = value["result"] else {
                throw .malformed("pageSettled needs pageParam, direction and result")
            }
            body = .pageSettled(key: try key(), page: page, answer: answer)
        case "hello":
            body = .hello(
                fetchers: try Advert.list(value["fetchers"]), mutators: try Advert.list(value["mutators"]),
                joining: value["joining"] == .bool(true))
        case "fetchRequest":
            guard let attemptNumber = value["attempt"]?.intValue else { throw .malformed("fetchRequest needs attempt") }
            let request = ForwardedFetch(
                key: try key(), attemptNumber: attemptNumber, meta: value["meta"], page: try page())
            body = .fetchRequest(id: try id(), request: request)
        case "fetchAnswer":
            body = .fetchAnswer(id: try id(), answer: try answer())
        case "fetchProgress":
            guard let data = value["data"] else { throw .malformed("fetchProgress needs data") }
            body = .fetchProgress(id: try id(), data: data)
        case "fetchCancel":
            body = .fetchCancel(id: try id())
        case "mutateRequest":
            guard let variables = value["variables"], let attemptNumber = value["attempt"]?.intValue else {
                throw .malformed("mutateRequest needs variables and attempt")
            }
            body = .mutateRequest(id: try id(), key: try key(), variables: variables, attemptNumber: attemptNumber)
        case "mutateAnswer":
            body = .mutateAnswer(id: try id(), answer: try answer())
        case "mutateCancel":
            body = .mutateCancel(id: try id())
        default:
            throw .malformed("unknown type \(type)")
        }
    }
}

extension ClusterMessage.Advert {
    var jsonValue: JSONValue {
        ["prefix": .array(prefix), "exact": .bool(exact), "cancellable": .bool(cancellable)]
    }

    /// The registrations of a heartbeat's `fetchers` or `mutators`.
    static func list(_ value: JSONValue?) throws(ClusterMessage.DecodingError) -> [Self] {
        guard case .array(let items)? = value else { throw .malformed("hello needs fetchers and mutators") }
        var adverts: [Self] = []
        for item in items {
            guard case .array(let prefix)? = item["prefix"], case .bool(let exact)? = item["exact"],
                case .bool(let cancellable)? = item["cancellable"]
            else { throw .malformed("a registration needs prefix, exact and cancellable") }
            adverts.append(Self(prefix: prefix, exact: exact, cancellable: cancellable))
        }
        return adverts
    }
}
