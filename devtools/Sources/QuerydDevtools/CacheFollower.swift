// Keeps the PageHub current from the first page on: a `cache.watch` whose snapshot and events go to the hub (watched
// again, with a new snapshot, after the connection to the daemon ended), and `server.stats` read every `interval`
// for the counters and graphs.

import Foundation

/// The loops that feed the pages.
public struct CacheFollower: Sendable {
    public let link: DaemonLink
    public let hub: PageHub
    /// How often `server.stats` is read, and how long to wait before watching again after a failure.
    public let interval: Duration

    public init(link: DaemonLink, hub: PageHub, interval: Duration) {
        self.link = link
        self.hub = hub
        self.interval = interval
    }

    /// Follows the cache until the task is cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await watch() }
            group.addTask { await readStats() }
        }
    }

    private func watch() async {
        while !Task.isCancelled {
            if await hub.isWatched {
                do {
                    let (snapshot, events) = try await link.watchCache()
                    await hub.publish(snapshot)
                    for await batch in events { await hub.publish(events: batch) }
                    await hub.publish(failure: "the connection to the daemon ended")
                } catch {
                    await hub.publish(failure: "\(error)")
                }
            }
            try? await Task.sleep(for: interval)
        }
    }

    private func readStats() async {
        while !Task.isCancelled {
            if await hub.isWatched, let stats = try? await link.stats() {
                await hub.publish(stats: stats, at: Int64(Date().timeIntervalSince1970 * 1000))
            }
            try? await Task.sleep(for: interval)
        }
    }
}
