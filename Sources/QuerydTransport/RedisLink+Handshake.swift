// What each new connection does before the link counts as connected: AUTH (with credentials), SELECT (command
// connection, database other than 0), a PING when neither proves that Redis answers, then (subscriber connection)
// SUBSCRIBE to every channel, waiting for each confirmation.

extension RedisLink {
    /// hiredis reports the connection established: start its handshake.
    func connectionDidConnect(_ connection: RedisConnection) {
        guard isCurrent(connection) else { return }
        var steps: [[[UInt8]]] = []
        if let credentials { steps.append(credentials.authCommand) }
        if connection.role == .command && endpoint.database != 0 {
            steps.append([Array("SELECT".utf8), Array(String(endpoint.database).utf8)])
        }
        if steps.isEmpty { steps.append([Array("PING".utf8)]) }
        runHandshake(connection, steps[...])
    }

    /// Sends the first of `steps` and continues with the rest once it is answered without an error.
    private func runHandshake(_ connection: RedisConnection, _ steps: ArraySlice<[[UInt8]]>) {
        guard let step = steps.first else { return handshakeCommandsDone(connection) }
        let name = String(decoding: step[0], as: UTF8.self)
        let command = RedisPendingCommand(connection: connection, deadline: 0) { [weak self] reply in
            guard let self, self.isCurrent(connection) else { return }
            if case .error(let message) = reply {
                self.fail("\(connection.role.rawValue) connection: \(name) failed: \(message)")
            } else {
                self.runHandshake(connection, steps.dropFirst())
            }
        }
        if !connection.send(step, command) {
            fail("\(connection.role.rawValue) connection: cannot send \(name)")
        }
    }

    /// The command connection is ready; the subscriber connection subscribes to every channel first.
    private func handshakeCommandsDone(_ connection: RedisConnection) {
        guard connection.role == .subscriber else { return connectionIsReady(connection) }
        connection.acceptsSubscriptions = true
        guard !channels.isEmpty else { return connectionIsReady(connection) }
        connection.awaitingConfirmation = channels
        if !connection.sendSubscription("SUBSCRIBE", Array(channels)) {
            fail("subscriber connection: cannot send SUBSCRIBE")
        }
    }
}
