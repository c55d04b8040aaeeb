// `/metrics`: the daemon's `server.stats` in Prometheus' text format, through swift-prometheus. Only what the
// daemon reports: its gauges of connections, queries, subscriptions, fetchers, in-flight fetches, waiting
// requests and resident memory.

import Prometheus

/// Renders `server.stats` as Prometheus text.
public struct MetricsExporter: Sendable {
    /// Each exported gauge (`queryd_<name>[_<unit>]`): its help text and where `server.stats` has its value.
    static let gauges: [(name: String, unit: String, help: String, path: [String])] = [
        ("connections", "", "Open connections to the daemon (the exporter's own included).", ["connections"]),
        ("queries", "", "Queries in the cache.", ["queries"]),
        ("subscriptions", "", "Subscriptions over all connections.", ["subscriptions"]),
        ("fetchers", "", "Registered fetchers.", ["fetchers"]),
        ("in_flight_fetches", "", "Fetch attempts awaiting a fetcher's answer.", ["inFlightFetches"]),
        ("pending_requests", "", "Client requests waiting for a fetch to settle.", ["pendingRequests"]),
        ("resident_memory", "bytes", "The daemon's resident set size in bytes.", ["memory", "rssBytes"]),
    ]

    public init() {}

    /// The text for one `server.stats` result (a gauge whose value the daemon did not send is left out).
    public func render(stats: JSON) -> String {
        let registry = PrometheusCollectorRegistry()
        for gauge in Self.gauges {
            guard let value = gauge.path.reduce(Optional(stats), { $0?[$1] })?.integer else { continue }
            let descriptor = MetricNameDescriptor(
                namespace: "queryd", metricName: gauge.name, unitName: gauge.unit, helpText: gauge.help)
            registry.makeGauge(descriptor: descriptor).set(Double(value))
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
