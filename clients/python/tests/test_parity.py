"""Issue 16 against the real daemon: cancel_refetch on the filter methods, queries.set_data,
query.set with if_version (VersionConflict), and counts, once and watched."""

import asyncio

import pytest
from support import run

from queryd_client import Client, InvalidParams, VersionConflict


def test_cancel_refetch_false_joins_the_fetch_in_flight(daemon):
    async def main():
        calls = []
        release = asyncio.Event()

        async def fetch(key):
            calls.append(key)
            await release.wait()
            return len(calls)

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as client:
            await server.register_fetcher(["cr"], fetch)
            await client.query.set(["cr"], 0)
            await client.query.prefetch(["cr"])
            assert await client.queries.refetch(["cr"], cancel_refetch=False) == 1
            assert await client.queries.invalidate(["cr"], refetch_type="all", cancel_refetch=False) == 1
            assert await client.queries.reset(["cr", "none"], cancel_refetch=False) == 0
            release.set()
            assert (await client.query.fetch(["cr"], stale_time=60000)).data == 1
            assert calls == [["cr"]]
            with pytest.raises(InvalidParams):
                await client.queries.refetch(["cr"], cancel_refetch="no")

    run(main())


def test_set_data_and_compare_and_set(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as client:
            await client.query.set(["sd", 1], {"n": 1})
            await client.query.set(["sd", 2], {"n": 2})
            assert await client.queries.set_data(["sd"], merge_patch={"done": True}) == 2
            assert await client.query.get(["sd", 2]) == {"n": 2, "done": True}
            assert await client.queries.set_data(["sd"], exact=True, data=0) == 0
            created = await client.query.set(["cas"], 1, if_version=0)
            with pytest.raises(VersionConflict) as conflict:
                await client.query.set(["cas"], 2, if_version=0)
            assert conflict.value.code == -32009
            assert conflict.value.data == {"key": ["cas"], "version": created.version}
            written = await client.query.set(["cas"], 3, if_version=created.version)
            assert written.data == 3

    run(main())


def test_counts_once_and_watched(daemon):
    async def main():
        release = asyncio.Event()

        async def fetch(key):
            await release.wait()
            return 1

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as client:
            await server.register_fetcher(["cnt"], fetch)
            assert await client.queries.count(["cnt"]) == 0
            assert await client.mutations.count({"status": "pending"}) == 0
            watched = []
            async with client.queries.watch_count(["cnt"], fetch_status="fetching") as counts:
                watched.append(await counts.next(5))
                await client.query.prefetch(["cnt", 1])
                watched.append(await counts.next(5))
                release.set()
                watched.append(await counts.next(5))
            assert watched == [0, 1, 0]
            assert await client.queries.count(["cnt"]) == 1
            async with client.mutations.watch_count({"status": "pending"}) as mutations:
                assert await mutations.next(5) == 0

    run(main())
