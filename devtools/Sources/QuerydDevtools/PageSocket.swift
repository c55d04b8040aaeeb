// One page's WebSocket: the hub's messages go out; the page's actions come in, run through DaemonLink, and their
// replies go back on the same stream (so they are ordered with the updates).

import HummingbirdWebSocket

/// Serves one page's WebSocket until either side ends it.
struct PageSocket {
    let link: DaemonLink
    let hub: PageHub

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (id, messages) = await hub.join()
        defer { Task { [hub] in await hub.leave(id) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in messages { try await outbound.write(.text(message)) }
            }
            group.addTask {
                for try await message in inbound.messages(maxSize: 16 << 20) {
                    guard case .text(let text) = message else { continue }
                    await hub.send(await reply(to: text), to: id)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// `{"type":"reply","id":n,"result":...}` or `{..."error":"why"}` for an action message `{"id":n,"action":...}`.
    private func reply(to text: String) async -> JSON {
        let message = try? JSON.parse(Array(text.utf8))
        var reply: [String: JSON] = ["type": "reply", "id": message?["id"] ?? .null]
        guard let message, let action = CacheAction(message: message) else {
            reply["error"] = "not an action: {id, action: refetch|invalidate|reset|remove|set, key, data}"
            return .object(reply)
        }
        do {
            reply["result"] = try await link.perform(action)
        } catch {
            reply["error"] = .string("\(error)")
        }
        return .object(reply)
    }
}
