"""The mutation cache and cache snapshots against the real daemon: mutation ``meta``,
``mutations.pages`` / ``mutations.clear``, ``cache.dehydrate`` / ``cache.hydrate``."""

from support import Daemon, run

from queryd_client import Client


def test_meta_pages_and_clear(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as client:
            await client.register_mutator(["todos"], lambda key, variables: variables)
            for index in (1, 2, 3):
                await client.mutation.run(["todos", "add"], index, meta={"form": "add"})
            pages = [page async for page in client.mutations.pages(limit=2)]
            assert [[m.variables for m in page] for page in pages] == [[1, 2], [3]]
            assert [m.meta for m in pages[0]] == [{"form": "add"}, {"form": "add"}]
            assert await client.mutations.clear() == 3
            assert await client.mutations.list() == []

    run(main())


def test_a_snapshot_moves_between_daemons(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as source:
            await source.query.set(["user"], {"name": "Ada"})
            snapshot = await source.cache.dehydrate(include_pending=True)
        assert snapshot["version"] == 1
        assert [entry["key"] for entry in snapshot["queries"]] == [["user"]]
        target = Daemon(["--manual-clock"])
        try:
            async with Client.connect(target.socket_path) as client:
                assert await client.cache.hydrate(snapshot) == {"queries": 1, "mutations": 0}
                assert (await client.query.state(["user"])).data == {"name": "Ada"}
                assert await client.cache.hydrate(snapshot) == {"queries": 0, "mutations": 0}
        finally:
            assert target.stop() == 0
            target.close()

    run(main())
