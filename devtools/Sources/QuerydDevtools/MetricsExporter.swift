// `/metrics`: the daemon's `server.stats` in Prometheus' text format, through swift-prometheus: gauges of
// connections, queries, subscriptions, fetchers, in-flight fetches, waiting requests and resident memory; counters of
// requests and errors by method, pushes, fetches started and settled; and the fetch-duration histogram.

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

    /// Each exported counter without labels (`queryd_<name>_total`).
    static let counters: [(name: String, help: String, path: [String])] = [
        ("pushes", "Pushes queued (query.changed, mutation.changed, cache.changed).", ["pushes"]),
        ("fetches_started", "Fetches started.", ["fetches", "started"]),
        ("fetches_settled", "Fetches that ended: with data, failed or cancelled.", ["fetches", "settled"]),
    ]

    public init() {}

    /// The text for one `server.stats` result (a metric whose value the daemon did not send is left out).
    public func render(stats: JSON) -> String {
        let registry = PrometheusCollectorRegistry()
        for gauge in Self.gauges {
            guard let value = Self.integer(stats, gauge.path) else { continue }
            let descriptor = MetricNameDescriptor(
                namespace: "queryd", metricName: gauge.name, unitName: gauge.unit, helpText: gauge.help)
            registry.makeGauge(descriptor: descriptor).set(Double(value))
        }
        for counter in Self.counters {
            guard let value = Self.integer(stats, counter.path) else { continue }
            registry.makeCounter(descriptor: Self.counter(counter.name, counter.help)).increment(by: value)
        }
        if case .object(let methods) = stats["methods"] {
            let requests = Self.counter("requests", "Requests by method (of the daemon's methods).")
            let errors = Self.counter("errors", "Error replies by method, given when called.")
            for (method, counts) in methods.sorted(by: { $0.key < $1.key }) {
                let labels = [("method", method)]
                registry.makeCounter(descriptor: requests, labels: labels)
                    .increment(by: counts["requests"]?.integer ?? 0)
                registry.makeCounter(descriptor: errors, labels: labels).increment(by: counts["errors"]?.integer ?? 0)
            }
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self) + Self.fetchDurations(stats["fetches"])
    }

    /// `queryd_fetch_duration_seconds` from the daemon's histogram (its buckets, cumulative counts and sum). Written
    /// here, not by swift-prometheus: its histograms take observations one at a time, and the daemon reports counts.
    static func fetchDurations(_ fetches: JSON?) -> String {
        guard let fetches, let settled = fetches["settled"]?.integer, let histogram = fetches["durationMs"],
            case .array(let buckets) = histogram["buckets"], let sum = histogram["sum"]?.integer
        else { return "" }
        let name = "queryd_fetch_duration_seconds"
        var text = "# HELP \(name) How long fetches took, from their start to their settlement.\n"
        text += "# TYPE \(name) histogram\n"
        for bucket in buckets {
            guard let bound = bucket["le"]?.integer, let count = bucket["count"]?.integer else { continue }
            text += "\(name)_bucket{le=\"\(Double(bound) / 1000)\"} \(count)\n"
        }
        text += "\(name)_bucket{le=\"+Inf\"} \(settled)\n"
        text += "\(name)_sum \(Double(sum) / 1000)\n\(name)_count \(settled)\n"
        return text
    }

    /// `queryd_<name>_total`.
    private static func counter(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "queryd", metricName: name, unitName: "total", helpText: help)
    }

    private static func integer(_ stats: JSON, _ path: [String]) -> Int64? {
        path.reduce(Optional(stats)) { $0?[$1] }?.integer
    }
}
