// The one place a core failure becomes a wire error. The core already holds the error object's
// parts (its codes are QuerydRPC's `RPCErrorCode` constants), so the mapping is field for field.

import QuerydCore
import QuerydRPC

extension RPCError {
    /// The wire form of a cache failure.
    init(failure: CacheFailure) {
        self.init(RPCErrorCode(rawValue: failure.code), failure.message, data: failure.data)
    }
}
