// Reads the daemon every `interval` while a page is open and hands the result to the PageHub.

/// The loop that keeps the pages current.
public struct Poller: Sendable {
    public let link: DaemonLink
    public let hub: PageHub
    public let interval: Duration

    public init(link: DaemonLink, hub: PageHub, interval: Duration) {
        self.link = link
        self.hub = hub
        self.interval = interval
    }

    /// Polls until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            if await hub.isWatched {
                do {
                    await hub.publish(try await link.snapshot())
                } catch {
                    await hub.publish(failure: "\(error)")
                }
            }
            try? await Task.sleep(for: interval)
        }
    }
}
