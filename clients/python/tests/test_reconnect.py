"""Reconnecting after the daemon restarts: fetchers registered again, subscriptions resumed, an
idempotent read cancelled by the shutdown sent again to the next daemon; and a client with
``reconnect=False`` failing cleanly."""

import asyncio

import pytest
from support import Daemon, eventually, run

from queryd_client import Client, ConnectionLost


@pytest.fixture
def own_daemon():
    process = Daemon(["--manual-clock"])
    try:
        yield process
    finally:
        process.close()


async def _pending(client, count):
    return (await client.server.stats())["pendingRequests"] == count


def test_reconnect_after_daemon_restart(own_daemon):
    async def main():
        generation = {"n": 1}

        async def fetch(key):
            return f"gen {generation['n']}"

        async with Client.connect(own_daemon.socket_path) as client, Client.connect(
            own_daemon.socket_path
        ) as watcher:
            await client.register_fetcher(["r"], fetch)
            subscription = watcher.subscribe(["r"])
            assert (await subscription.next(5)).fetch_status == "fetching"
            assert (await subscription.next(5)).data == "gen 1"
            waiting = asyncio.ensure_future(watcher.query.fetch(["unserved"]))
            await eventually(
                lambda: _pending(client, 1), "the waiting fetch to reach the daemon"
            )
            generation["n"] = 2
            loop = asyncio.get_running_loop()
            # The daemon waits for its clients to close before exiting: keep the loop running.
            assert await loop.run_in_executor(None, own_daemon.stop) == 0
            # The daemon answered it -32003 shutdown: an idempotent read waits for the next daemon.
            assert not waiting.done()
            await loop.run_in_executor(None, own_daemon.start)
            state = await subscription.next(10)
            seen = [dict(state)]
            while state.status != "success":
                try:
                    state = await subscription.next(10)
                except asyncio.TimeoutError:
                    raise AssertionError(f"{seen}\n{await client.queries.list()}\n{await client.server.stats()}")
                seen.append(dict(state))
            assert state.data == "gen 2" and state.data_update_count == 1
            await client.register_fetcher(["unserved"], lambda key: "served by the next daemon")
            assert (await asyncio.wait_for(waiting, 10)).data == "served by the next daemon"
            assert (await client.query.fetch(["r", "again"])).data == "gen 2"
            assert (client.reconnects, watcher.reconnects) == (1, 1)
            stats = await client.server.stats()
            assert (stats["fetchers"], stats["subscriptions"], stats["connections"]) == (2, 1, 2)
            await subscription.unsubscribe()

    run(main())


def test_killed_daemon_fails_in_flight_requests_with_connection_lost(own_daemon):
    async def main():
        client = await Client.connect(own_daemon.socket_path, reconnect=False)
        subscription = client.subscribe(["k"])
        await subscription.start()
        waiting = asyncio.ensure_future(client.query.fetch(["k"]))
        await client.server.ping()
        own_daemon.kill()
        with pytest.raises(ConnectionLost):
            await waiting
        with pytest.raises(ConnectionLost):
            await client.server.ping()
        first = await subscription.next(5)
        assert first.fetch_status == "paused"
        with pytest.raises(ConnectionLost):
            await subscription.next(5)
        await client.close()

    run(main())
