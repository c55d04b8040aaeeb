"""/metrics: Prometheus text (parsed with prometheus_client's parser) whose values are the daemon's server.stats: its
gauges, its counters of requests and errors by method, pushes and fetches, and the fetch-duration histogram."""

import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

EXPECTED = {
    "queryd_connections": "connections", "queryd_queries": "queries", "queryd_subscriptions": "subscriptions",
    "queryd_fetchers": "fetchers", "queryd_in_flight_fetches": "inFlightFetches",
    "queryd_pending_requests": "pendingRequests",
}


def scrape(devtools):
    request = urllib.request.Request(f"{devtools.base}/metrics", headers={"Authorization": f"Bearer {devtools.token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        families = {family.name: family for family in text_string_to_metric_families(response.read().decode())}
    return {name: family.samples[0].value for name, family in families.items() if family.type == "gauge"}, families


def test_metrics_are_the_daemons_stats(devtools, client):
    client.register_fetcher(["metrics"], lambda key: 1)
    for index in range(3):
        client.query.set(["metrics", index], index)
    subscription = client.subscribe(["metrics", 0], stale_time=60_000)
    subscription.next(5)
    scrape(devtools)  # the devtools connect to the daemon at their first need
    stats = client.server.stats()
    values, families = scrape(devtools)
    gauges = {name for name, family in families.items() if family.type == "gauge"}
    assert gauges == set(EXPECTED) | {"queryd_resident_memory_bytes"}
    for family in families.values():
        assert family.documentation
        if family.type == "gauge":
            assert len(family.samples) == 1
    for metric, field in EXPECTED.items():
        assert values[metric] == stats[field], metric
    assert values["queryd_queries"] == 3
    assert values["queryd_fetchers"] == 1
    assert values["queryd_subscriptions"] == 1
    assert values["queryd_connections"] == 2  # this test's client and the devtools
    assert values["queryd_resident_memory_bytes"] > 1_000_000
    assert abs(values["queryd_resident_memory_bytes"] - stats["memory"]["rssBytes"]) < 64 << 20
    subscription.close()


def test_requests_errors_pushes_and_fetch_durations_are_counted(devtools, client):
    calls = []
    client.register_fetcher(["timed"], lambda key: calls.append(key) or "done")
    scrape(devtools)  # the devtools connect to the daemon at their first need
    subscription = client.subscribe(["timed"])  # stale: fetched at once, with no clock time passing
    subscription.next(5)
    wait = time.monotonic() + 5
    while not calls or client.server.stats()["fetches"]["settled"] < 1:
        assert time.monotonic() < wait, "the fetch did not settle"
        time.sleep(0.02)
    client.query.set(["timed"], "pushed")
    subscription.next(5)
    with pytest.raises(Exception):
        client.call("query.set", {"key": ["timed"]})  # no data: invalid params
    stats = client.server.stats()
    _, families = scrape(devtools)

    def sample(family, name, **labels):
        return next(s.value for s in families[family].samples if s.name == name and s.labels == labels)

    assert families["queryd_requests"].type == "counter"
    assert sample("queryd_requests", "queryd_requests_total", method="query.set") == \
        stats["methods"]["query.set"]["requests"]
    assert sample("queryd_errors", "queryd_errors_total", method="query.set") == \
        stats["methods"]["query.set"]["errors"] >= 1
    assert sample("queryd_pushes", "queryd_pushes_total") == stats["pushes"] >= 1
    assert sample("queryd_fetches_started", "queryd_fetches_started_total") == stats["fetches"]["started"] >= 1
    histogram = families["queryd_fetch_duration_seconds"]
    assert histogram.type == "histogram"
    # The manual clock stood still: the fetch took 0 ms, so it is in every bucket.
    assert sample("queryd_fetch_duration_seconds", "queryd_fetch_duration_seconds_bucket", le="0.005") == \
        sample("queryd_fetch_duration_seconds", "queryd_fetch_duration_seconds_count") == stats["fetches"]["settled"]
    subscription.close()


def test_metrics_take_the_token_as_a_query_parameter(devtools):
    with urllib.request.urlopen(f"{devtools.base}/metrics?token={devtools.token}", timeout=10) as response:
        names = [family.name for family in text_string_to_metric_families(response.read().decode())]
    assert "queryd_queries" in names
