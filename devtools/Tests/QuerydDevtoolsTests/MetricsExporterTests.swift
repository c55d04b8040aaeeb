// /metrics' text for a server.stats result: one gauge per counter the daemon reports, named queryd_*.

import QuerydDevtools
import Testing

@Suite struct MetricsExporterTests {
    @Test func rendersEachReportedCounter() {
        let text = MetricsExporter().render(stats: [
            "connections": 2, "queries": 3, "subscriptions": 1, "fetchers": 1, "inFlightFetches": 0,
            "pendingRequests": 0, "memory": ["rssBytes": 9_437_184],
        ])
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.sorted()
        #expect(
            samples == [
                "queryd_connections 2.0", "queryd_fetchers 1.0", "queryd_in_flight_fetches 0.0",
                "queryd_pending_requests 0.0", "queryd_queries 3.0", "queryd_resident_memory_bytes 9437184.0",
                "queryd_subscriptions 1.0",
            ])
        #expect(text.contains("# TYPE queryd_queries gauge\n"))
    }

    @Test func leavesOutWhatTheDaemonDidNotSend() {
        #expect(MetricsExporter().render(stats: ["queries": 1]).contains("queryd_connections") == false)
    }
}
