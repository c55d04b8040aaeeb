// Pushes in the `meta` and `patch` modes (protocol 2). A meta push is the state without data. A
// patch push carries its data whole, as an RFC 7396 merge patch from the data its client holds
// (the data last written to that subscription), or not at all when that data is still current. A
// patch is used only when it gives the new data exactly (checked by applying it) and is shorter
// than the data.

import QuerydCore
import QuerydJSON

/// What a patch-mode subscription's client holds: the `dataVersion` and data last written to it.
struct PatchBase {
    var dataVersion: UInt64?
    var data: JSONValue?

    /// What a client holds after it was sent `result` whole.
    init(_ result: QueryResult) {
        dataVersion = result.dataVersion
        data = result.data
    }
}

/// One push to a patch-mode subscription.
enum PatchPush {
    /// The state with its data.
    case full
    /// The state without data, and `patch` turning the data of `baseVersion` into the new data.
    case patch(baseVersion: UInt64, encoded: [UInt8])
    /// The state without data: the data did not change (or there is none).
    case unchanged

    /// How to push `result` to a client holding `base`.
    init(_ result: QueryResult, over base: PatchBase?) {
        guard let data = result.data, let version = result.dataVersion else {
            // Data without a version is a placeholder, sent whole; no data needs nothing.
            self = result.data == nil ? .unchanged : .full
            return
        }
        guard let base, let baseVersion = base.dataVersion, let baseData = base.data else {
            self = .full
            return
        }
        if baseVersion == version {
            self = .unchanged
            return
        }
        guard let patch = baseData.mergePatch(to: data), baseData.applyingMergePatch(patch) == data else {
            self = .full
            return
        }
        var encoded: [UInt8] = []
        patch.write(to: &encoded)
        let dataBytes =
            result.encodedDataCount
            ?? {
                var bytes: [UInt8] = []
                data.write(to: &bytes)
                return bytes.count
            }()
        self = encoded.count < dataBytes ? .patch(baseVersion: baseVersion, encoded: encoded) : .full
    }
}

/// Writes the `query.changed` lines of `meta` and `patch` pushes, keeping the base of each
/// patch-mode subscription: what was last written to it, so a coalesced push patches from what
/// its client actually has.
struct ModePushWriter {
    private var bases: [SubscriptionID: PatchBase] = [:]

    /// The client of a patch-mode subscription holds `result` (its subscribe or setOptions reply).
    mutating func reset(_ subscription: SubscriptionID, to result: QueryResult) {
        bases[subscription] = PatchBase(result)
    }

    /// Forgets a subscription that ended or changed.
    mutating func forget(_ subscription: SubscriptionID) {
        if !bases.isEmpty { bases[subscription] = nil }
    }

    /// Appends the push of `view` to `subscription` in `mode` (`meta` or `patch`), newline included.
    mutating func write(_ view: QueryView, to subscription: SubscriptionID, mode: PushMode, into out: inout [UInt8]) {
        var shape = StateShape.withoutData
        if mode == .patch {
            let result = view.result
            switch PatchPush(result, over: bases[subscription]) {
            case .full:
                shape = .withDataVersion
                bases[subscription] = PatchBase(result)
            case .patch(let baseVersion, let patch):
                out.append(
                    contentsOf: #"{"jsonrpc":"2.0","method":"query.changed","params":{"patch":{"baseVersion":"#.utf8)
                JSONWriter.writeInteger(Int64(truncatingIfNeeded: baseVersion), to: &out)
                out.append(contentsOf: #","patch":"#.utf8)
                out.append(contentsOf: patch)
                out.append(contentsOf: #","version":"#.utf8)
                JSONWriter.writeInteger(Int64(truncatingIfNeeded: result.dataVersion!), to: &out)
                out.append(contentsOf: #"},"state":"#.utf8)
                out.append(contentsOf: view.encodedState(.withoutData))
                ModePushWriter.writeTail(subscription, to: &out)
                bases[subscription] = PatchBase(result)
                return
            case .unchanged:
                if result.data == nil { bases[subscription] = PatchBase(result) }
            }
        }
        out.append(contentsOf: #"{"jsonrpc":"2.0","method":"query.changed","params":{"state":"#.utf8)
        out.append(contentsOf: view.encodedState(shape))
        ModePushWriter.writeTail(subscription, to: &out)
    }

    /// Appends `,"subscription":id}}` and the newline.
    private static func writeTail(_ subscription: SubscriptionID, to out: inout [UInt8]) {
        out.append(contentsOf: #","subscription":"#.utf8)
        JSONWriter.writeInteger(Int64(subscription.rawValue), to: &out)
        out.append(contentsOf: "}}\n".utf8)
    }
}
