// Pub/sub on the link: the channels the subscriber connection keeps (restored after every reconnect),
// SUBSCRIBE/UNSUBSCRIBE as they change, and the messages and confirmations Redis pushes.

extension RedisLink {
    /// Keeps the subscriber connection subscribed to these channels (restored after every reconnect).
    /// Channels already subscribed are ignored. While connected, SUBSCRIBE goes out at once.
    public func subscribe(_ channels: [[UInt8]]) {
        loop.assertInLoopThread()
        let added = channels.filter { self.channels.insert($0).inserted }
        guard let subscriber = subscriberConnection, subscriber.acceptsSubscriptions, !added.isEmpty else { return }
        if !subscriber.sendSubscription("SUBSCRIBE", added) {
            fail("subscriber connection: cannot send SUBSCRIBE")
        }
    }

    /// Stops the subscription to these channels: no message of theirs is delivered from now on, even one already
    /// on its way. Channels not subscribed are ignored.
    public func unsubscribe(_ channels: [[UInt8]]) {
        loop.assertInLoopThread()
        let removed = channels.filter { self.channels.remove($0) != nil }
        guard let subscriber = subscriberConnection, subscriber.acceptsSubscriptions, !removed.isEmpty else { return }
        // hiredis refuses UNSUBSCRIBE only on a context that is not subscribed (nothing to undo then).
        subscriber.sendSubscription("UNSUBSCRIBE", removed)
        for channel in removed { subscriber.awaitingConfirmation.remove(channel) }
        if subscriber.awaitingConfirmation.isEmpty { connectionIsReady(subscriber) }
    }

    /// A push on the subscriber connection: `[message, channel, payload]`, or a (un)subscribe confirmation.
    func subscriber(_ connection: RedisConnection, didReceive reply: RedisReply) {
        guard isCurrent(connection), case .array(let parts) = reply, parts.count >= 2,
            case .bulk(let kind) = parts[0], case .bulk(let channel) = parts[1]
        else { return }
        switch kind {
        case Array("message".utf8):
            guard parts.count == 3, case .bulk(let payload) = parts[2], channels.contains(channel) else { return }
            onMessage?(channel, payload)
        case Array("subscribe".utf8):
            guard connection.awaitingConfirmation.remove(channel) != nil, connection.awaitingConfirmation.isEmpty
            else { return }
            connectionIsReady(connection)
        default:
            return
        }
    }
}
