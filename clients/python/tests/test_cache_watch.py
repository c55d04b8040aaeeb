"""``client.cache.watch()`` against the real daemon: the snapshot, then the whole cache's events in
order, narrowed by key, and ended by leaving the ``async with``."""

from support import run

from queryd_client import Client


def _describe(events):
    return [(event["type"], (event.get("state") or event)["key"]) for event in events]


def test_snapshot_then_events_in_order(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as watcher, Client.connect(daemon.socket_path) as writer:
            await writer.query.set(["before"], 1)
            async with watcher.cache.watch(data=True) as watch:
                snapshot = await watch.next(timeout=5)
                assert [query["key"] for query in snapshot["queries"]] == [["before"]]
                assert snapshot["queries"][0]["data"] == 1
                await writer.query.set(["a"], 1)
                assert _describe(await watch.next(timeout=5)) == [("query.added", ["a"])]
                await writer.queries.remove(["a"])
                assert _describe(await watch.next(timeout=5)) == [("query.removed", ["a"])]

    run(main())


def test_a_key_narrows_the_queries(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as watcher, Client.connect(daemon.socket_path) as writer:
            async with watcher.cache.watch(["t"]) as watch:
                assert (await watch.next(timeout=5))["queries"] == []
                await writer.query.set(["u"], 1)
                await writer.query.set(["t", 1], 2)
                events = await watch.next(timeout=5)
                assert _describe(events) == [("query.added", ["t", 1])]
                assert "data" not in events[0]["state"]

    run(main())
