// /metrics' text for a server.stats result: a gauge or counter per number the daemon reports, requests and errors by
// method, and the fetch-duration histogram, named queryd_*.

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

    @Test func rendersCountersByMethodAndTheFetchDurationHistogram() {
        let buckets: [JSON] = [["le": 5, "count": 1], ["le": 50, "count": 3]]
        let text = MetricsExporter().render(stats: [
            "methods": ["query.get": ["requests": 7, "errors": 2]], "pushes": 4,
            "fetches": ["started": 4, "settled": 3, "durationMs": ["buckets": .array(buckets), "sum": 1500]],
        ])
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.sorted()
        #expect(
            samples == [
                #"queryd_errors_total{method="query.get"} 2"#, "queryd_fetch_duration_seconds_bucket{le=\"+Inf\"} 3",
                #"queryd_fetch_duration_seconds_bucket{le="0.005"} 1"#,
                #"queryd_fetch_duration_seconds_bucket{le="0.05"} 3"#, "queryd_fetch_duration_seconds_count 3",
                "queryd_fetch_duration_seconds_sum 1.5", "queryd_fetches_settled_total 3",
                "queryd_fetches_started_total 4", "queryd_pushes_total 4",
                #"queryd_requests_total{method="query.get"} 7"#,
            ])
        #expect(text.contains("# TYPE queryd_requests_total counter\n"))
        #expect(text.contains("# TYPE queryd_fetch_duration_seconds histogram\n"))
    }

    @Test func leavesOutWhatTheDaemonDidNotSend() {
        #expect(MetricsExporter().render(stats: ["queries": 1]).contains("queryd_connections") == false)
    }
}
