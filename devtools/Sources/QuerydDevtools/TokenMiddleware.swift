// Every request, the WebSocket upgrade included, must present the token; otherwise 401 with an empty body.

import HTTPTypes
import Hummingbird

/// Refuses requests without the right token.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: AccessToken

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let presented = AccessToken.presented(query: request.uri.query, authorization: request.headers[.authorization])
        guard let presented, token.matches(presented) else {
            return Response(status: .unauthorized, headers: [.contentLength: "0"])
        }
        var response = try await next(request, context)
        response.headers[.cacheControl] = "no-store"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
