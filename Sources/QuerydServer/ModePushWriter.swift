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

/// The subscriptions of one connection that are not pushed as protocol 1 does (`push` "meta" or
/// "patch", or `echo: false`), and for patch-mode ones what their client holds: the data last
/// written to them, so a coalesced push patches from what the client actually has.
struct ModePushWriter {
    private struct Delivery {
        var push: PushMode
        var echo: Bool
        /// Patch mode: the client's data.
        var base: PatchBase?
    }

    private var deliveries: [SubscriptionID: Delivery] = [:]

    /// Whether every subscription is pushed as protocol 1 does.
    var isEmpty: Bool { deliveries.isEmpty }

    /// Records how `subscription` is pushed to, now that its reply, carrying `result`, is queued.
    mutating func register(_ subscription: SubscriptionID, push: PushMode, echo: Bool, reply result: QueryResult) {
        if push == .state, echo {
            deliveries[subscription] = nil
        } else {
            deliveries[subscription] = Delivery(push: push, echo: echo, base: push == .patch ? PatchBase(result) : nil)
        }
    }

    /// Forgets a subscription that ended or changed.
    mutating func forget(_ subscription: SubscriptionID) {
        deliveries[subscription] = nil
    }

    /// The subscriptions with `echo: false`.
    var subscriptionsWithoutEcho: [SubscriptionID] {
        deliveries.compactMap { $0.value.echo ? nil : $0.key }
    }

    /// Appends the push of `view` to `subscription` (newline included) when the subscription is
    /// pushed in the `meta` or `patch` mode; returns false, appending nothing, otherwise.
    mutating func write(_ view: QueryView, to subscription: SubscriptionID, into out: inout [UInt8]) -> Bool {
        guard let delivery = deliveries[subscription], delivery.push != .state else { return false }
        var shape = StateShape.withoutData
        if delivery.push == .patch {
            let result = view.result
            switch PatchPush(result, over: delivery.base) {
            case .full:
                shape = .withDataVersion
                deliveries[subscription]?.base = PatchBase(result)
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
                deliveries[subscription]?.base = PatchBase(result)
                return true
            case .unchanged:
                if result.data == nil { deliveries[subscription]?.base = PatchBase(result) }
            }
        }
        out.append(contentsOf: #"{"jsonrpc":"2.0","method":"query.changed","params":{"state":"#.utf8)
        out.append(contentsOf: view.encodedState(shape))
        ModePushWriter.writeTail(subscription, to: &out)
        return true
    }

    /// Appends `,"subscription":id}}` and the newline.
    private static func writeTail(_ subscription: SubscriptionID, to out: inout [UInt8]) {
        out.append(contentsOf: #","subscription":"#.utf8)
        JSONWriter.writeInteger(Int64(subscription.rawValue), to: &out)
        out.append(contentsOf: "}}\n".utf8)
    }
}
