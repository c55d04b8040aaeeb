// A line whose only fault is a number beyond a double's range (such as 1e400) in a message's
// params or answer is not a parse error for the whole line: a request is answered -32602 with its
// own id and the number's path, and an answer to a `fetch` or `mutate` fails that attempt.

import QuerydJSON
import QuerydRPC

extension Session {
    /// Handles `line`, which the parser refused with `error`, when the refusal is for numbers out
    /// of range inside one message's `params`, `result` or `error`; returns false (doing nothing)
    /// otherwise, and the line gets its -32700.
    func handleOutOfRangeNumber(_ line: UnsafeRawBufferPointer, error: JSONParseError) -> Bool {
        guard
            let (value, path) = JSONParser.parseReplacingOutOfRangeNumbers(
                line, refusedWith: error, maxDepth: server.configuration.maxDepth),
            let member = path.first, ["params", "result", "error"].contains(member),
            case .success(let message) = RPCDecoding.decode(value)
        else { return false }
        let reason = JSONParseError.outOfRangeMessage
        switch message {
        case .request(let request):
            // A request's numbers are all in its params (a request with result or error is invalid).
            let reply = PendingReply(id: request.id, link: link, batch: nil, slot: 0)
            reply.fail(Params.invalid(path.dropFirst().joined(separator: "."), reason))
        case .notification:
            break
        case .response(let response):
            let at = path.joined(separator: ".")
            dispatch(
                .failure(RPCInvalid(id: response.id, reason: "\(reason) at \(at)", isResponse: true)), batch: nil,
                slot: 0)
        }
        return true
    }
}
