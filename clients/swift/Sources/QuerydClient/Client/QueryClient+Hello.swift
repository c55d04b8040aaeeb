// Protocol negotiation, sent first on every connection: `server.hello` asking for protocols 1 to 2, with
// the fallback for a protocol-1 daemon that does not know the negotiation members.

import QuerydJSON
import QuerydRPC

extension QueryClient {
    /// The server->client requests this client answers (sent as `capabilities.requests`).
    static let servedRequests: JSONValue = ["fetch", "mutate"]

    /// Sends `server.hello` and records the outcome in ``serverInfo``. A refusal that names the
    /// negotiation members without `data.supported` comes from a protocol-1 daemon: the hello is sent
    /// again with `client` alone and the protocol is 1. A refusal with `data.supported` (no common protocol)
    /// or `data.missing` is thrown.
    func negotiate() async throws(QueryClientError) {
        let params: JSONValue = [
            "client": QueryClient.clientInfo, "protocol": ["min": 1, "max": 2],
            "capabilities": ["requests": QueryClient.servedRequests],
        ]
        do throws(QueryClientError) {
            serverInfo = ServerInfo(hello: try await request("server.hello", params, binding: nil), fallbackProtocol: 2)
        } catch {
            guard case .server(let refusal) = error, QueryClient.isProtocolOneRefusal(refusal) else { throw error }
            let result = try await request("server.hello", ["client": QueryClient.clientInfo], binding: nil)
            serverInfo = ServerInfo(hello: result, fallbackProtocol: 1)
        }
    }

    /// -32602 for a member a protocol-1 daemon does not know: it names the first unknown member
    /// (`protocol` or `capabilities`) and, unlike a protocol-2 refusal, has no `supported` or `missing`.
    static func isProtocolOneRefusal(_ error: RPCError) -> Bool {
        guard error.code == .invalidParams, error.data?["supported"] == nil, error.data?["missing"] == nil else {
            return false
        }
        let field = error.data?["field"]?.stringValue
        return field == "protocol" || field == "capabilities"
    }
}
