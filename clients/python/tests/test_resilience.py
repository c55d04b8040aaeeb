"""Resilience against the real daemon: waiting for a daemon that is starting, connection-state
events across a restart, and a read in flight re-sent after the daemon was killed."""

import asyncio
import os
import threading

import pytest
from support import Daemon, eventually, run

from queryd_client import Client, ConnectFailed, ConnectionLost


def test_connect_waits_for_a_daemon_that_is_starting():
    async def main():
        daemon = Daemon.__new__(Daemon)
        daemon.flags = ["--manual-clock"]
        daemon.socket_path = f"/tmp/qd-py-late-{os.getpid()}.sock"
        daemon.log = open(os.devnull, "wb")
        daemon.process = None
        with pytest.raises(ConnectFailed):
            await Client.connect(daemon.socket_path)
        starter = threading.Timer(0.3, daemon.start)
        starter.start()
        try:
            async with Client.connect(daemon.socket_path, connect_wait=10) as client:
                assert client.connection_state == "connected"
                await client.server.ping()
        finally:
            starter.join()
            daemon.kill()
            if os.path.exists(daemon.socket_path):
                os.unlink(daemon.socket_path)

    run(main())


def test_a_fetch_in_flight_is_sent_again_after_the_daemon_was_killed():
    daemon = Daemon(["--manual-clock"])

    async def main():
        changes = []
        async with Client.connect(daemon.socket_path, backoff=(0.01, 0.1)) as user, Client.connect(
            daemon.socket_path, backoff=(0.01, 0.1)
        ) as server:
            user.on_connection_state(lambda state, reason: changes.append(state))
            waiting = asyncio.ensure_future(user.query.fetch(["late"]))
            await eventually(lambda: _pending(server, 1), "the fetch to wait in the daemon")
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, daemon.kill)
            await loop.run_in_executor(None, daemon.start)
            await server.wait_connected()
            await server.register_fetcher(["late"], lambda key: "served after the restart")
            state = await asyncio.wait_for(waiting, 10)
            assert (state.data, state.data_update_count) == ("served after the restart", 1)
            assert user.reconnects == 1
        assert changes == ["reconnecting", "connected", "closed"]

    try:
        run(main())
    finally:
        daemon.close()


async def _pending(client, count):
    return (await client.server.stats())["pendingRequests"] == count


def test_a_line_over_max_line_bytes_ends_the_connection_and_the_read_is_not_resent(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as writer, Client.connect(
            daemon.socket_path, max_line_bytes=2000, backoff=(0.01, 0.02)
        ) as reader:
            await writer.query.set(["big"], "x" * 5000)
            with pytest.raises(ConnectionLost) as caught:
                await reader.query.get(["big"])
            assert caught.value.code == "LINE_TOO_LONG"
            assert "longer than the limit (2000 bytes)" in str(caught.value)
            await reader.server.ping()
            assert reader.reconnects == 1

    run(main())
