// The push fast path: the engine's `push` effects go into the subscriber's outbox as shared
// `QueryView`s (encoded once per publish, framed per subscription in `Outbox`), and a run of pushes
// to one connection looks its session up once. It relies on `lastPushSession` being cleared when
// its session closes (`Server.sessionClosed`), asserted in debug builds.

import QuerydCore

extension Server {
    /// Queues a `query.changed` push of `view` to a subscription of `connection` (gone: nothing).
    func push(_ view: consuming QueryView, to subscription: SubscriptionID, connection: ConnectionID) {
        // A publish pushes to the subscriptions of a connection one after another: the session of
        // the last push is kept, so only the first push of a run looks the connection up.
        let session: Session
        if let last = lastPushSession, last.connection == connection {
            assert(self.session(for: connection) === last, "the last push's session is still open")
            session = last
        } else {
            guard let found = self.session(for: connection) else { return }
            lastPushSession = found
            session = found
        }
        session.outbox.appendPush(view, to: subscription)
        counters.pushes &+= 1
        markDirty(session)
    }
}
