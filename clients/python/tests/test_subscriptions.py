"""Subscriptions against the real daemon: subscribe then push, options, invalidation by prefix."""

import asyncio

from support import eventually, run

from queryd_client import Client


def test_subscribe_yields_the_reply_state_then_pushes(daemon):
    async def main():
        release = asyncio.Event()

        async def fetch_news(key):
            await release.wait()
            return ["headline"]

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as reader:
            await server.register_fetcher(["news"], fetch_news)
            seen = []
            async for state in reader.subscribe(["news"]):
                seen.append((state.status, state.fetch_status, state.data))
                if len(seen) == 1:
                    release.set()
                elif len(seen) == 2:
                    await server.query.set(["news"], ["breaking"])
                else:
                    break
            assert seen == [
                ("pending", "fetching", None),
                ("success", "idle", ["headline"]),
                ("success", "idle", ["breaking"]),
            ]

            # Leaving the loop closes the iterator; asyncio finalises it in a task of its own.
            async def unsubscribed():
                return (await reader.server.stats())["subscriptions"] == 0

            await eventually(unsubscribed, "the subscription to end after break")

    run(main())


def test_set_options_moves_the_subscription(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as client:
            await client.register_fetcher(["page"], lambda key: f"page {key[1]}")
            async with client.subscribe(["page", 1], stale_time=60000) as subscription:
                assert (await subscription.next(5)).fetch_status == "fetching"
                assert (await subscription.next(5)).data == "page 1"
                moved = await subscription.set_options(["page", 2])
                assert moved.key == ["page", 2] and moved.fetch_status == "fetching"
                assert (await subscription.next(5)).key == ["page", 2]
                settled = await subscription.next(5)
                assert (settled.key, settled.data) == (["page", 2], "page 2")
                refetched = await subscription.refetch()
                assert refetched.data == "page 2" and refetched.data_update_count == 2
            assert (await client.server.stats())["subscriptions"] == 0

    run(main())


def test_invalidate_by_prefix_refetches_active_matches_only(daemon):
    async def main():
        counts = {}

        async def counting(key):
            counts[key[1]] = counts.get(key[1], 0) + 1
            return f"{key[1]} #{counts[key[1]]}"

        async with Client.connect(daemon.socket_path) as client:
            await client.register_fetcher(["inv"], counting)
            await client.query.set(["other"], "untouched")
            await client.query.fetch(["inv", "inactive"])
            subscription = client.subscribe(["inv", "active"])
            assert (await subscription.next(5)).fetch_status == "fetching"
            assert (await subscription.next(5)).data == "active #1"
            assert await client.queries.invalidate(["inv"]) == 2
            states = [await subscription.next(5), await subscription.next(5)]
            assert [(s.is_invalidated, s.fetch_status) for s in states[:1]] == [(True, "fetching")]
            assert (states[1].data, states[1].is_invalidated, states[1].fetch_status) == ("active #2", False, "idle")
            inactive = await client.query.state(["inv", "inactive"])
            assert (inactive.data, inactive.is_invalidated) == ("inactive #1", True)
            assert not (await client.query.state(["other"])).is_invalidated
            assert counts == {"inactive": 1, "active": 2}
            listed = await client.queries.list(["inv"])
            assert [(s.key, s.observers) for s in listed] == [(["inv", "active"], 1), (["inv", "inactive"], 0)]
            await subscription.unsubscribe()

    run(main())


def test_push_modes_against_the_daemon(daemon):
    """Protocol 2's push modes over the real daemon: patch pushes are rebuilt into full data, meta
    states carry dataVersion and no data, and echo=False leaves out the connection's own writes."""

    async def main():
        key = ["push-modes", 1]
        async with Client.connect(daemon.socket_path) as writer, Client.connect(daemon.socket_path) as reader:
            await writer.query.set(key, {"a": 1, "b": {"c": 2}})
            patched, meta = reader.subscribe(key, push="patch"), reader.subscribe(key, push="meta")
            patch_states, meta_states = patched.__aiter__(), meta.__aiter__()
            first = await patch_states.__anext__()
            first_meta = await meta_states.__anext__()
            assert first.data == {"a": 1, "b": {"c": 2}}
            assert "data" not in first_meta and first_meta["dataVersion"] == first["dataVersion"]

            await writer.query.set(key, merge_patch={"b": {"c": 3}})
            second = await patch_states.__anext__()
            second_meta = await meta_states.__anext__()
            assert second.data == {"a": 1, "b": {"c": 3}}
            assert "data" not in second_meta and second_meta["dataVersion"] == second["dataVersion"]
            assert second["dataVersion"] > first["dataVersion"]

            await writer.query.set(key, {"a": 1, "b": {"c": 3}, "d": [1]})
            third = await patch_states.__anext__()
            assert third.data == {"a": 1, "b": {"c": 3}, "d": [1]}
            await patch_states.aclose()
            await meta_states.aclose()

            # echo=False: the subscriber's own write is not pushed back to it; another's is.
            quiet = reader.subscribe(key, push="patch", echo=False).__aiter__()
            assert (await quiet.__anext__()).data == {"a": 1, "b": {"c": 3}, "d": [1]}
            await reader.query.set(key, {"own": True})
            await writer.query.set(key, {"other": True})
            pushed = await asyncio.wait_for(quiet.__anext__(), 5)
            assert pushed.data == {"other": True}
            await quiet.aclose()

    run(main())
