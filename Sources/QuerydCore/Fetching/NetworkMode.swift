// `networkMode` of queries and mutations (TanStack's): when the network state
// (`network.setOnline`) lets an attempt start.
//
// - `online` (default): no attempt starts while offline; the fetch or mutation pauses and continues
//   when the network comes back.
// - `always`: the network state is ignored (a fetcher backed by a local database); for queries
//   `refetchOnReconnect` then defaults to false.
// - `offlineFirst`: the first attempt starts even offline; retries pause while offline.

import QuerydJSON

/// When the network state lets an attempt start.
public enum NetworkMode: String, Sendable, Equatable {
    case online, always, offlineFirst

    /// Whether an attempt may start now, with `attemptsSoFar` attempts made already.
    func allowsAttempt(online: Bool, attemptsSoFar: Int) -> Bool {
        switch self {
        case .online: return online
        case .always: return true
        case .offlineFirst: return online || attemptsSoFar == 0
        }
    }

    /// Reads `networkMode`: "online", "always" or "offlineFirst".
    init(json member: JSONValue, field: String) throws(OptionsError) {
        guard let text = member.stringValue, let mode = NetworkMode(rawValue: text) else {
            throw OptionsError(field: field, reason: "must be \"online\", \"always\" or \"offlineFirst\"")
        }
        self = mode
    }
}
