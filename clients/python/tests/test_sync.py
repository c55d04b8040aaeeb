"""The blocking wrapper: the same operations without await, for scripts."""

import threading

import pytest

from queryd_client import FetchFailed, HandlerError
from queryd_client.sync import Client


def test_sync_client_round_trip(daemon):
    def fetch_user(key):
        if key[1] == 0:
            raise HandlerError("no user 0", code=404)
        return {"id": key[1]}

    with Client(daemon.socket_path, timeout=10) as client:
        client.register_fetcher(["user"], fetch_user)
        assert client.query.fetch(["user", 3]).data == {"id": 3}
        with pytest.raises(FetchFailed) as caught:
            client.query.fetch(["user", 0])
        assert caught.value.data == {"code": 404, "message": "no user 0"}
        client.query.set(["greeting"], "hello")
        assert client.query.get(["greeting"]) == "hello"
        with client.subscribe(["greeting"]) as subscription:
            assert subscription.next(5).data == "hello"
            client.query.set(["greeting"], "bye")
            assert subscription.next(5).data == "bye"
        assert client.queries.invalidate(["user"]) == 2
        assert client.server.stats()["subscriptions"] == 0


def test_iterating_a_subscription_outlasts_the_call_timeout_and_break_unsubscribes(daemon):
    # Issue 14, defect 1: `timeout` bounds calls, not the wait for the next push.
    with Client(daemon.socket_path, timeout=0.3) as client, Client(daemon.socket_path, timeout=5) as writer:
        client.query.set(["quiet"], 1)
        timer = threading.Timer(0.8, lambda: writer.query.set(["quiet"], 2))
        timer.start()
        seen = []
        for state in client.subscribe(["quiet"]):
            seen.append(state.data)
            if state.data == 2:
                break
        timer.join()
        assert seen == [1, 2]
        assert client.server.stats()["subscriptions"] == 0


def test_break_out_of_a_subscription_loop_unsubscribes(daemon):
    with Client(daemon.socket_path, timeout=5) as client:
        client.query.set(["left"], "x")
        for state in client.subscribe(["left"]):
            assert state.data == "x"
            break
        assert client.server.stats()["subscriptions"] == 0


def test_lifecycle_triggers_and_pages_in_the_blocking_client(daemon):
    calls = []

    def fetch(key):
        calls.append(key)
        return len(calls)

    with Client(daemon.socket_path, timeout=5) as client:
        client.register_fetcher(["sync-trigger"], fetch)
        with client.subscribe(["sync-trigger"], refetch_on=["saved"]) as subscription:
            while subscription.next(5).data != 1:
                pass
            assert client.emit("saved") == 1
            while subscription.next(5).data != 2:
                pass
        pages = list(client.queries.pages(["sync-trigger"]))
        assert [[s.data for s in page] for page in pages] == [[2]]
