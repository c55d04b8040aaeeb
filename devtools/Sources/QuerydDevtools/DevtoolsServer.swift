// The devtools' HTTP server (Hummingbird): the page's files, its WebSocket at /ws and /metrics, all behind the
// token; the WebSocket only for the page's own origin.

import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// Builds and runs the devtools' web server.
public struct DevtoolsServer: Sendable {
    public let address: ListenAddress
    public let token: AccessToken
    public let link: DaemonLink
    public let hub: PageHub
    public let files: PageFiles

    public init(address: ListenAddress, token: AccessToken, link: DaemonLink, hub: PageHub, files: PageFiles) {
        self.address = address
        self.token = token
        self.link = link
        self.hub = hub
        self.files = files
    }

    /// Serves until SIGINT or SIGTERM; `onListening` gets the page's URL (with the port actually bound).
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        let address = address
        let token = token
        let router = makeRouter()
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "queryd-devtools"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                onListening("http://\(address.urlHost):\(port)/?token=\(token.text)")
            })
        try await app.runService()
    }

    private func makeRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.middlewares.add(TokenMiddleware(token: token))
        let policy = OriginPolicy(address: address)
        let socket = PageSocket(link: link, hub: hub)
        router.ws(
            "/ws",
            shouldUpgrade: { request, _ in
                guard policy.allows(origin: request.headers[.origin], host: request.head.authority) else {
                    throw HTTPError(.forbidden)
                }
                return .upgrade()
            },
            onUpgrade: { inbound, outbound, _ in try await socket.serve(inbound: inbound, outbound: outbound) })
        router.get("/metrics") { _, _ in try await metrics() }
        router.get("/") { _, _ in try page("index.html") }
        router.get("/:file") { _, context in try page(context.parameters.require("file")) }
        return router
    }

    private func page(_ name: String) throws -> Response {
        guard let file = files.file(name, token: token) else { throw HTTPError(.notFound) }
        return Response(
            status: .ok, headers: [.contentType: file.contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    private func metrics() async throws -> Response {
        let stats: JSON
        do {
            stats = try await link.stats()
        } catch {
            throw HTTPError(.serviceUnavailable, message: "\(error)")
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: MetricsExporter().render(stats: stats))))
    }
}
