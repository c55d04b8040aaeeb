"""Protocol 2 on the client side, against a scripted fake peer (fake_peer.py): hello negotiation and
the protocol-1 fallback, the tolerant-reader rules, patch pushes rebuilt into full states,
``$/closing`` as the reason of a connection loss, and paged ``queries.list``."""

import asyncio

import pytest
from fake_peer import HELLO_V2, FakePeer, PeerConnection
from support import run

from queryd_client import Client, InvalidParams


async def _idle(peer: PeerConnection) -> None:
    """Answers every further request with ``{}`` until the client goes away."""
    while True:
        message = await peer.recv(30)
        if "id" in message:
            peer.reply(message, {})


def _state(version, **members):
    return {"key": ["k"], "status": "success", "fetchStatus": "idle", "version": version, **members}


def test_hello_negotiates_protocol_2_and_keeps_node_and_epoch():
    hellos = []

    async def script(peer):
        hellos.append((await peer.hello())["params"])
        await _idle(peer)

    async def main():
        async with FakePeer(script) as fake, Client.connect(fake.path) as client:
            assert (client.protocol, client.node, client.epoch) == (2, "n1", "e1")
            assert "option:push" in client.capabilities
        assert hellos[0]["protocol"] == {"min": 1, "max": 2}
        assert hellos[0]["capabilities"] == {"requests": ["fetch", "mutate"]}
        assert hellos[0]["client"]["name"] == "queryd-python"

    run(main())


@pytest.mark.parametrize("field", ["protocol", "capabilities"])
def test_a_protocol_1_daemon_is_greeted_again_without_the_new_members(field):
    hellos = []

    async def script(peer):
        first = await peer.expect("server.hello")
        hellos.append(first["params"])
        peer.error(first, -32602, "Invalid params", {"field": field, "reason": "unknown parameter"})
        second = await peer.expect("server.hello")
        hellos.append(second["params"])
        peer.reply(second, {"server": "queryd", "version": "0.1.0", "protocol": 1, "capabilities": ["query.get"]})
        await _idle(peer)

    async def main():
        async with FakePeer(script) as fake, Client.connect(fake.path) as client:
            assert (client.protocol, client.node, client.epoch) == (1, None, None)
        assert list(hellos[1]) == ["client"]

    run(main())


def test_no_protocol_overlap_fails_connect():
    async def script(peer):
        request = await peer.expect("server.hello")
        data = {"field": "protocol", "reason": "no overlap", "supported": {"min": 3, "max": 4}, "requested": {}}
        peer.error(request, -32602, "Invalid params", data)
        await _idle(peer)

    async def main():
        async with FakePeer(script) as fake:
            with pytest.raises(InvalidParams) as caught:
                await Client.connect(fake.path, reconnect=False)
            assert caught.value.data["supported"] == {"min": 3, "max": 4}

    run(main())


def test_tolerant_reader_ignores_unknown_members_and_notifications_and_refuses_unknown_requests():
    answers = []

    async def script(peer):
        await peer.hello()
        request = await peer.expect("query.state")
        peer.send({"method": "future.notification", "params": {"x": 1}})
        peer.send({"id": 77, "method": "future.request", "params": {}})
        answers.append(await peer.recv())
        peer.send({"id": request["id"], "result": _state(1, data=5, futureField=[1]), "futureTop": 1})
        await _idle(peer)

    async def main():
        async with FakePeer(script) as fake, Client.connect(fake.path) as client:
            state = await client.query.state(["k"])
            assert (state.data, state["futureField"]) == (5, [1])
        assert answers == [
            {"jsonrpc": "2.0", "id": 77, "error": {"code": -32601, "message": "Method not found",
                                                   "data": {"method": "future.request"}}}
        ]

    run(main())


def test_patch_pushes_are_rebuilt_into_full_states():
    reads = []

    async def script(peer):
        await peer.hello()
        request = await peer.expect("query.subscribe")
        assert request["params"]["options"] == {"push": "patch", "echo": False}
        peer.reply(request, {"subscription": 1, "state": _state(1, data={"a": 1, "b": 1}, dataVersion=1)})

        def push(version, **extra):
            peer.send({"method": "query.changed", "params": {"subscription": 1, **extra,
                                                             "state": _state(version, **extra.pop("state", {}))}})

        push(2, patch={"baseVersion": 1, "version": 2, "patch": {"b": None, "c": 3}}, state={"dataVersion": 2})
        push(3, state={"dataVersion": 2, "isStale": True})  # unchanged data
        # A patch against a base this subscription never had: the client must re-read.
        push(5, patch={"baseVersion": 4, "version": 5, "patch": {"z": 1}}, state={"dataVersion": 5})
        read = await peer.expect("query.state")
        reads.append(read["params"])
        peer.reply(read, _state(5, data={"a": 9, "z": 1}))
        push(6, patch={"baseVersion": 5, "version": 6, "patch": {"a": 10}}, state={"dataVersion": 6})
        push(7, resync=True, state={"data": "fresh", "dataVersion": 7})
        push(8, state={})  # no dataVersion: the query has no data now
        await _idle(peer)

    async def main():
        async with FakePeer(script) as fake, Client.connect(fake.path) as client:
            subscription = client.subscribe(["k"], push="patch", echo=False)
            seen = [(s.version, s.get("data", "-")) for s in [await subscription.next(5) for _ in range(7)]]
            await subscription.unsubscribe()
        assert seen == [
            (1, {"a": 1, "b": 1}),
            (2, {"a": 1, "c": 3}),
            (3, {"a": 1, "c": 3}),
            (5, {"a": 9, "z": 1}),
            (6, {"a": 10, "z": 1}),
            (7, "fresh"),
            (8, "-"),
        ]
        assert reads == [{"key": ["k"]}]

    run(main())


def test_closing_notification_is_the_reason_of_the_connection_loss():
    accepted = []

    async def script(peer):
        await peer.hello()
        accepted.append(peer)
        if len(accepted) > 1:
            await _idle(peer)
        peer.send({"method": "$/closing", "params": {"reason": "slow consumer", "limit": "max-outbound-bytes"}})
        peer.close()

    async def main():
        changes = []
        async with FakePeer(script) as fake:
            async with Client.connect(fake.path, backoff=(0.01, 0.02)) as client:
                client.on_connection_state(lambda state, reason: changes.append((state, reason)))
                while len(changes) < 2:
                    await asyncio.sleep(0.01)
        assert changes == [
            ("reconnecting", "the daemon closed the connection: slow consumer (limit max-outbound-bytes)"),
            ("connected", None),
            ("closed", None),
        ]

    run(main())


def test_pages_follow_next_cursor():
    cursors = []

    async def script(peer):
        await peer.hello()
        for page, cursor in ((["a", "b"], "c1"), (["c"], None)):
            request = await peer.expect("queries.list")
            cursors.append(request["params"])
            result = {"queries": [_state(1, key=[k]) for k in page]}
            if cursor:
                result["nextCursor"] = cursor
            peer.reply(request, result)
        await _idle(peer)

    async def main():
        async with FakePeer(script) as fake, Client.connect(fake.path) as client:
            pages = [[s.key[0] for s in page] async for page in client.queries.pages(["q"], limit=2)]
        assert pages == [["a", "b"], ["c"]]
        assert cursors == [
            {"filter": {"key": ["q"]}, "cursor": None, "limit": 2},
            {"filter": {"key": ["q"]}, "cursor": "c1", "limit": 2},
        ]

    run(main())


def test_an_idempotent_read_in_flight_is_sent_again_after_a_reconnect():
    received = []

    async def script(peer):
        await peer.hello({**HELLO_V2, "epoch": f"e{len(received) + 1}"})
        request = await peer.expect("query.get")
        received.append(request["params"])
        if len(received) == 1:
            peer.close()  # dropped before the reply
            return
        peer.reply(request, {"data": "second try"})
        await _idle(peer)

    async def main():
        async with FakePeer(script) as fake, Client.connect(fake.path, backoff=(0.01, 0.02)) as client:
            assert await client.query.get(["k"]) == "second try"
            assert (client.reconnects, client.epoch) == (1, "e2")
        assert received == [{"key": ["k"]}, {"key": ["k"]}]

    run(main())


def test_meta_pushes_are_yielded_without_data_and_without_reads():
    requests = []

    async def script(peer):
        await peer.hello()
        request = await peer.expect("query.subscribe")
        peer.reply(request, {"subscription": 1, "state": _state(1, dataVersion=1)})
        peer.send({"method": "query.changed", "params": {"subscription": 1, "state": _state(2, dataVersion=2)}})
        while True:
            message = await peer.recv(30)
            requests.append(message.get("method"))
            if "id" in message:
                peer.reply(message, {})

    async def main():
        async with FakePeer(script) as fake, Client.connect(fake.path) as client:
            subscription = client.subscribe(["k"], push="meta")
            seen = [await subscription.next(5), await subscription.next(5)]
            assert [(s.version, s.data_version, "data" in s) for s in seen] == [(1, 1, False), (2, 2, False)]
            await client.server.ping()
        assert requests == ["server.ping"]

    run(main())
