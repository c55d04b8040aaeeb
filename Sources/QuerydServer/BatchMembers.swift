// The batch rule of protocol 2: a batch is answered by one line, so a member that could wait for a
// fetch or a mutation would hold back every other member's answer. Such members are refused.

import QuerydRPC

enum BatchMembers {
    /// The methods whose reply may wait for a fetch or a mutation to settle.
    static let waiting: Set<String> = [
        "query.fetch", "query.ensure", "query.refetch", "query.fetchNextPage", "query.fetchPreviousPage",
        "mutation.run",
    ]

    /// `outcome` as a batch member: a request for a waiting method becomes a -32600 for its id
    /// (nothing runs); everything else is unchanged.
    static func admit(_ outcome: Result<RPCMessage, RPCInvalid>) -> Result<RPCMessage, RPCInvalid> {
        guard case .success(.request(let request)) = outcome, waiting.contains(request.method) else { return outcome }
        return .failure(
            RPCInvalid(
                id: request.id,
                reason:
                    "\(request.method) may wait for a fetch or a mutation, so it is refused in a batch; send it alone"))
    }
}
