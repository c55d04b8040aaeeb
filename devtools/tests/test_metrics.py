"""/metrics: Prometheus text (parsed with prometheus_client's parser) whose values are the daemon's server.stats."""

import urllib.request

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
    return {name: family.samples[0].value for name, family in families.items()}, families


def test_metrics_are_the_daemons_stats(devtools, client):
    client.register_fetcher(["metrics"], lambda key: 1)
    for index in range(3):
        client.query.set(["metrics", index], index)
    subscription = client.subscribe(["metrics", 0], stale_time=60_000)
    subscription.next(5)
    scrape(devtools)  # the devtools connect to the daemon at their first need
    stats = client.server.stats()
    values, families = scrape(devtools)
    assert set(families) == set(EXPECTED) | {"queryd_resident_memory_bytes"}
    for family in families.values():
        assert family.type == "gauge" and len(family.samples) == 1 and family.documentation
    for metric, field in EXPECTED.items():
        assert values[metric] == stats[field], metric
    assert values["queryd_queries"] == 3
    assert values["queryd_fetchers"] == 1
    assert values["queryd_subscriptions"] == 1
    assert values["queryd_connections"] == 2  # this test's client and the devtools
    assert values["queryd_resident_memory_bytes"] > 1_000_000
    assert abs(values["queryd_resident_memory_bytes"] - stats["memory"]["rssBytes"]) < 64 << 20
    subscription.close()


def test_metrics_take_the_token_as_a_query_parameter(devtools):
    with urllib.request.urlopen(f"{devtools.base}/metrics?token={devtools.token}", timeout=10) as response:
        names = [family.name for family in text_string_to_metric_families(response.read().decode())]
    assert "queryd_queries" in names
