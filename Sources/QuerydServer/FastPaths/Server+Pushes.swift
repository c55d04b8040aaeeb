// The push fast path: the engine's `push` effects go into the subscriber's outbox as shared
// `QueryView`s (encoded once per publish, framed per subscription in `Outbox`). A run of pushes is
// applied in one loop that borrows each view from the engine's push lane (no retain per push) and
// looks a connection's session up once per sequence of pushes to it (a publish reaches the
// subscriptions of one connection one after another).

import QuerydCore

extension Server {
    /// Queues each push of `run` to its subscription's outbox (gone connections: nothing).
    @inline(__always)
    func applyPushes(_ run: inout PushRun) {
        while let connection = run.nextConnection {
            guard let session = self.session(for: connection) else {
                run.forEach(to: connection) { _, _ in }
                continue
            }
            markDirty(session)
            run.forEach(to: connection) { view, subscription in
                session.outbox.appendPush(view, to: subscription)
                counters.pushes &+= 1
            }
        }
    }

    /// Queues a `query.changed` push of `view` to a subscription of `connection` (gone: nothing).
    func push(_ view: QueryView, to subscription: SubscriptionID, connection: ConnectionID) {
        guard let session = self.session(for: connection) else { return }
        session.outbox.appendPush(view, to: subscription)
        counters.pushes &+= 1
        markDirty(session)
    }
}
