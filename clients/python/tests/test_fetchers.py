"""Fetchers against the real daemon: registration and serving, dedupe seen from two clients,
error propagation and cancellation in both directions."""

import asyncio

import pytest
from support import eventually, run

from queryd_client import (
    Client,
    FetchFailed,
    HandlerError,
    InvalidParams,
    MethodNotFound,
    QueryState,
    UnknownID,
)


def test_fetcher_registration_and_serving(daemon):
    async def main():
        calls = []

        async def fetch_todo(key, meta=None, attempt=1):
            calls.append((key, meta, attempt))
            return {"id": key[1], "title": f"todo {key[1]}"}

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as user:
            registration = await server.register_fetcher(["todos"], fetch_todo)
            assert isinstance(registration.id, int) and registration.id > 0
            state = await user.query.fetch(["todos", 7], meta={"tenant": "acme"})
            assert isinstance(state, QueryState)
            assert (state.status, state.fetch_status, state.data) == ("success", "idle", {"id": 7, "title": "todo 7"})
            assert state["dataUpdatedAt"] == 1700000000000 and state.data_update_count == 1
            assert calls == [(["todos", 7], {"tenant": "acme"}, 1)]
            assert await user.query.get(["todos", 7]) == {"id": 7, "title": "todo 7"}
            assert await user.query.get(["todos", 8], default="none") == "none"
            ensured = await user.query.ensure(["todos", 7])
            assert ensured.data == {"id": 7, "title": "todo 7"} and len(calls) == 1
            patched = await user.query.set(["todos", 7], merge_patch={"title": "renamed"})
            assert patched.data == {"id": 7, "title": "renamed"} and patched.data_update_count == 2
            assert (await user.query.state(["todos", 7])).data == {"id": 7, "title": "renamed"}
            assert await user.query.state(["todos", "absent"]) is None
            await registration.unregister()
            assert (await user.server.stats())["fetchers"] == 0

    run(main())


def test_plain_function_fetcher_runs_in_a_thread(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as client:
            await client.register_fetcher(["plain"], lambda key: {"echo": key})
            state = await client.query.fetch(["plain", {"x": 1}])
            assert state.data == {"echo": ["plain", {"x": 1}]}

    run(main())


def test_dedupe_seen_from_two_clients(daemon):
    async def main():
        started = asyncio.Event()
        release = asyncio.Event()
        calls = []

        async def slow(key):
            calls.append(key)
            started.set()
            await release.wait()
            return {"n": 42}

        async with Client.connect(daemon.socket_path) as server, Client.connect(
            daemon.socket_path
        ) as first, Client.connect(daemon.socket_path) as second:
            await server.register_fetcher(["dedupe"], slow)
            one = asyncio.ensure_future(first.query.fetch(["dedupe"]))
            await started.wait()
            two = asyncio.ensure_future(second.query.fetch(["dedupe"]))

            async def both_waiting():
                return (await server.server.stats())["pendingRequests"] == 2

            await eventually(both_waiting, "two waiting query.fetch calls")
            release.set()
            a, b = await asyncio.gather(one, two)
            assert calls == [["dedupe"]]
            assert a == b and a.data == {"n": 42} and a.version == b.version

    run(main())


def test_errors_propagate_with_code_message_data_and_method(daemon):
    async def main():
        async def failing(key):
            if key[1] == "handler":
                raise HandlerError("Not found", code=404, data={"id": 7})
            raise ValueError("bad input")

        async with Client.connect(daemon.socket_path) as client:
            await client.register_fetcher(["fail"], failing)
            with pytest.raises(FetchFailed) as caught:
                await client.query.fetch(["fail", "handler"])
            error = caught.value
            assert (error.code, error.message, error.method) == (-32001, "Fetch failed", "query.fetch")
            assert error.data == {"code": 404, "message": "Not found", "data": {"id": 7}}
            with pytest.raises(FetchFailed) as caught:
                await client.query.fetch(["fail", "exception"])
            assert caught.value.data == {"code": -32000, "message": "bad input", "data": {"type": "ValueError"}}
            state = await client.query.state(["fail", "exception"])
            assert state.status == "error" and state.error["data"]["message"] == "bad input"
            with pytest.raises(InvalidParams) as caught:
                await client.query.fetch(["fail", "x"], stale_time="1s")
            assert caught.value.data["field"] == "options.staleTime"
            with pytest.raises(UnknownID) as caught:
                await client.call("query.unsubscribe", {"subscription": 999})
            assert caught.value.code == -32005 and caught.value.data == {"subscription": 999}
            with pytest.raises(MethodNotFound):
                await client.call("no.such.method")

    run(main())


def test_cancelling_a_call_sends_cancel_request(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as client, Client.connect(daemon.socket_path) as observer:
            waiting = asyncio.ensure_future(client.query.fetch(["nobody", "serves"]))

            async def pending(count):
                return (await observer.server.stats())["pendingRequests"] == count

            await eventually(lambda: pending(1), "the waiting fetch")
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            await eventually(lambda: pending(0), "the daemon to drop the cancelled request")
            await client.queries.remove(["nobody"])

    run(main())


def test_cancellable_fetcher_task_is_cancelled(daemon):
    async def main():
        cancelled = asyncio.Event()
        started = asyncio.Event()

        async def forever(key):
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.set()
                raise

        async with Client.connect(daemon.socket_path) as client:
            await client.register_fetcher(["hang"], forever, cancellable=True)
            await client.query.prefetch(["hang"])
            await started.wait()
            await client.query.cancel(["hang"])
            await asyncio.wait_for(cancelled.wait(), 5)
            state = await client.query.state(["hang"])
            assert (state.status, state.fetch_status) == ("pending", "idle")

    run(main())


def test_capabilities_from_hello(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as client:
            assert client.server_info["server"] == "queryd" and client.server_info["protocol"] == 2
            state = await client.query.set(["epoch-check"], 1)
            assert client.epoch and state["epoch"] == client.epoch and client.node
            assert {"query.fetch", "feature:manual-clock"} <= client.capabilities
            assert await client.clock.advance(5) == 1700000000005

    run(main())


def test_fetcher_registered_after_a_waiting_subscriber_serves_it(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as reader:
            subscription = reader.subscribe(["late"])
            assert (await subscription.next(5)).fetch_status == "paused"
            await server.register_fetcher(["late"], lambda key: "served")
            state = await subscription.next(5)
            while state.fetch_status != "idle":
                state = await subscription.next(5)
            assert (state.status, state.data) == ("success", "served")
            await subscription.unsubscribe()

    run(main())


def test_retry_shapes_retry_on_mount_and_network_mode_reach_the_daemon(daemon):
    async def main():
        attempts = []

        async def flaky(key, attempt=1):
            attempts.append(attempt)
            raise HandlerError("busy" if attempt == 1 else "bug", code=503 if attempt == 1 else 500)

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as user:
            await server.register_fetcher(["flaky"], flaky)
            backoff = {"base": 10, "factor": 2, "max": 10}
            call = asyncio.ensure_future(user.query.fetch(["flaky"], retry=[503], retry_delay=backoff))

            async def first_failed():
                state = await user.query.state(["flaky"])
                return state is not None and state.failure_count == 1

            await eventually(first_failed, "the first failure")
            await user.clock.advance(10)
            with pytest.raises(FetchFailed) as caught:
                await call
            assert caught.value.data == {"code": 500, "message": "bug"} and attempts == [1, 2]
            with pytest.raises(InvalidParams):
                await user.query.fetch(["flaky"], retry_on_mount="no")
            await user.set_online(False)
            try:
                await server.register_fetcher(["local"], lambda key: "from disk")
                state = await user.query.fetch(["local"], network_mode="always")
                assert (state.data, state.fetch_status) == ("from disk", "idle")
            finally:
                await user.set_online(True)

    run(main())


def test_set_and_get_defaults_reach_the_daemon(daemon):
    async def main():
        attempts = []

        async def down(key, attempt=1):
            attempts.append(attempt)
            raise HandlerError("down", code=503)

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as user:
            await server.register_fetcher(["defaulted"], down)
            await user.queries.set_defaults(["defaulted"], retry=1, retry_delay=10)
            await user.mutations.set_defaults(["defaulted"], retry=2)
            assert await user.queries.get_defaults(["defaulted", 1]) == {
                "queries": [{"key": ["defaulted"], "options": {"retry": 1, "retryDelay": 10}}],
                "mutations": [{"key": ["defaulted"], "options": {"retry": 2}}],
            }
            call = asyncio.ensure_future(user.query.fetch(["defaulted", 1]))

            async def first_failed():
                state = await user.query.state(["defaulted", 1])
                return state is not None and state.failure_count == 1

            await eventually(first_failed, "the first failure")
            await user.clock.advance(10)
            with pytest.raises(FetchFailed):
                await call
            assert attempts == [1, 2]
            await user.queries.set_defaults(["defaulted"])
            await user.mutations.set_defaults(["defaulted"])
            assert await user.queries.get_defaults() == {"queries": [], "mutations": []}

    run(main())
