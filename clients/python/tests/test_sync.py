"""The blocking wrapper: the same operations without await, for scripts."""

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
