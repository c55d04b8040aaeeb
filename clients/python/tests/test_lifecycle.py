"""Lifecycle triggers (focus, online, named events) and streaming fetchers, against the real daemon."""

import asyncio

from support import run

from queryd_client import Client


async def _until(subscription, check):
    while True:
        state = await subscription.next(5)
        if check(state):
            return state


def test_focus_online_and_events_refetch(daemon):
    async def main():
        calls = []

        async def fetch(key):
            calls.append(key)
            return len(calls)

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as user:
            await server.register_fetcher(["trigger"], fetch)
            subscription = user.subscribe(["trigger"], refetch_on=["saved"])
            await _until(subscription, lambda s: s.data == 1)
            await user.set_focused(False)
            await user.set_focused(True)  # stale data: regaining focus refetches
            await _until(subscription, lambda s: s.data == 2)
            assert await user.emit("saved") == 1
            await _until(subscription, lambda s: s.data == 3)
            assert await user.emit("nobody-listens") == 0
            await user.set_online(False)
            await user.query.prefetch(["trigger"])
            await _until(subscription, lambda s: s.fetch_status == "paused")
            await user.set_online(True)
            await _until(subscription, lambda s: s.data == 4 and s.fetch_status == "idle")
            await subscription.unsubscribe()
            assert len(calls) == 4

    run(main())


def test_a_fetcher_streams_progress_chunks(daemon):
    async def main():
        step = asyncio.Event()

        async def fetch(key, progress):
            progress(["line 1"])
            await step.wait()
            progress(["line 1", "line 2"])
            return ["line 1", "line 2", "line 3"]

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as user:
            await server.register_fetcher(["log"], fetch)
            subscription = user.subscribe(["log"])
            first = await _until(subscription, lambda s: s.data is not None)
            assert (first.data, first.fetch_status) == (["line 1"], "fetching")
            step.set()
            last = await _until(subscription, lambda s: s.fetch_status == "idle")
            assert (last.data, last.data_update_count) == (["line 1", "line 2", "line 3"], 3)
            await subscription.unsubscribe()

    run(main())


def test_plain_fetcher_progress_runs_through_the_loop(daemon):
    def fetch(key, progress):
        progress("partial")
        return "done"

    async def main():
        async with Client.connect(daemon.socket_path) as client:
            await client.register_fetcher(["plain-log"], fetch)
            state = await client.query.fetch(["plain-log"])
            assert (state.data, state.data_update_count) == ("done", 2)

    run(main())
