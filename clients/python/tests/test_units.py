"""Unit tests without a daemon: the connection over a socket pair, keys, options and paths."""

import asyncio
import json
import socket

import pytest
from support import run

from queryd_client import ConnectionLost, FetchFailed, RPCError, socket_path
from queryd_client.connection import Connection
from queryd_client.keys import as_key, wire_options


async def _pair(**callbacks):
    ours, theirs = socket.socketpair()
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    peer_reader, peer_writer = await asyncio.open_unix_connection(sock=theirs)
    return Connection(reader, writer, **callbacks), peer_reader, peer_writer


async def _read(peer_reader):
    return json.loads(await asyncio.wait_for(peer_reader.readline(), 5))


def _write(peer_writer, message):
    peer_writer.write(json.dumps(message).encode() + b"\n")


def test_replies_are_routed_by_id_in_any_order():
    async def main():
        connection, peer_reader, peer_writer = await _pair()
        first = asyncio.ensure_future(connection.request("query.fetch", {"key": ["a"]}))
        second = asyncio.ensure_future(connection.request("query.get", {"key": ["b"]}))
        sent = [await _read(peer_reader), await _read(peer_reader)]
        assert sent == [
            {"jsonrpc": "2.0", "id": 1, "method": "query.fetch", "params": {"key": ["a"]}},
            {"jsonrpc": "2.0", "id": 2, "method": "query.get", "params": {"key": ["b"]}},
        ]
        _write(peer_writer, {"jsonrpc": "2.0", "id": 2, "result": None})
        _write(peer_writer, {"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Fetch failed",
                                                                 "data": {"code": 7, "message": "x"}}})
        assert await second is None
        with pytest.raises(FetchFailed) as caught:
            await first
        assert (caught.value.method, caught.value.data) == ("query.fetch", {"code": 7, "message": "x"})
        await connection.close()

    run(main())


def test_cancelling_a_request_sends_cancel_request():
    async def main():
        connection, peer_reader, _ = await _pair()
        waiting = asyncio.ensure_future(connection.request("query.fetch", {"key": ["a"]}))
        assert (await _read(peer_reader))["id"] == 1
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert await _read(peer_reader) == {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 1}}
        await connection.close()

    run(main())


def test_server_requests_and_notifications_reach_their_callbacks_in_order():
    async def main():
        seen = []
        connection, peer_reader, peer_writer = await _pair(
            on_request=lambda conn, rid, method, params: conn.respond(rid, {"data": [method, params]}),
            on_notification=lambda conn, method, params: seen.append((method, params)),
        )
        _write(peer_writer, {"jsonrpc": "2.0", "method": "query.changed", "params": {"subscription": 1}})
        _write(peer_writer, {"jsonrpc": "2.0", "id": 9, "method": "fetch", "params": {"key": []}})
        assert await _read(peer_reader) == {"jsonrpc": "2.0", "id": 9, "result": {"data": ["fetch", {"key": []}]}}
        assert seen == [("query.changed", {"subscription": 1})]
        await connection.close()

    run(main())


def test_peer_closing_fails_waiting_requests():
    async def main():
        connection, peer_reader, peer_writer = await _pair()
        waiting = asyncio.ensure_future(connection.request("server.ping"))
        await _read(peer_reader)
        peer_writer.close()
        with pytest.raises(ConnectionLost):
            await waiting
        await connection.wait_closed()
        with pytest.raises(ConnectionLost):
            await connection.request("server.ping")

    run(main())


def test_wire_options_convert_names_but_not_values():
    assert wire_options({"stale_time": 5, "meta": {"user_id": 1}, "initial_page_param": 0, "max_pages": 3}) == {
        "staleTime": 5, "meta": {"user_id": 1}, "infinite": {"initialPageParam": 0, "maxPages": 3},
    }
    assert wire_options({"set_data": [{"key": ["a"], "from_result": "/x"}], "retry_delay": 10}) == {
        "setData": [{"key": ["a"], "fromResult": "/x"}], "retryDelay": 10,
    }
    assert as_key(("todos", 1)) == ["todos", 1]
    with pytest.raises(TypeError):
        as_key("todos")


def test_socket_path_resolution_matches_the_daemon():
    assert socket_path("/x.sock", {"QUERYD_SOCKET": "/y"}) == "/x.sock"
    assert socket_path(None, {"QUERYD_SOCKET": "/y.sock", "XDG_RUNTIME_DIR": "/run/u"}) == "/y.sock"
    assert socket_path(None, {"QUERYD_SOCKET": "", "XDG_RUNTIME_DIR": "/run/u"}) == "/run/u/queryd.sock"
    assert socket_path(None, {"XDG_RUNTIME_DIR": "relative"}).startswith("/tmp/queryd-")


def test_every_documented_code_has_one_class_with_the_shared_name():
    # Issue 14, defect 5: the same class names in every client (clients/README.md, errors).
    import queryd_client

    expected = {
        -32700: "ParseError", -32600: "InvalidRequest", -32601: "MethodNotFound", -32602: "InvalidParams",
        -32603: "InternalError", -32001: "FetchFailed", -32002: "NoFetcher", -32003: "CancelledByServer",
        -32004: "AttemptTimeout", -32005: "UnknownID", -32006: "LimitExceeded", -32007: "MutationFailed",
        -32008: "PermissionDenied", -32009: "VersionConflict", -32800: "RequestCancelled",
    }
    for code, name in expected.items():
        error = RPCError.from_wire({"code": code, "message": "m"}, "x.y")
        assert type(error).__name__ == name and type(error) is getattr(queryd_client, name)
    assert queryd_client.TooManyConnections is queryd_client.LimitExceeded
    assert type(RPCError.from_wire({"code": -1, "message": "m"})) is RPCError


def test_backoff_doubles_with_jitter_and_resets():
    import random

    from queryd_client.resilience import Backoff

    backoff = Backoff(0.1, 0.4, rng=random.Random(7))
    delays = [backoff.next() for _ in range(5)]
    bounds = [0.1, 0.2, 0.4, 0.4, 0.4]
    assert all(high / 2 <= delay <= high for delay, high in zip(delays, bounds)), delays
    assert len(set(delays)) == 5
    backoff.reset()
    assert 0.05 <= backoff.next() <= 0.1


def test_public_api_is_fully_annotated():
    import inspect

    import queryd_client
    from queryd_client import sync

    missing = []
    exported = [getattr(queryd_client, name) for name in queryd_client.__all__]
    classes = [member for member in exported if inspect.isclass(member)]
    for owner in classes + [sync.Client, sync.SyncSubscription] + [type(n) for n in _namespaces()]:
        for name, member in vars(owner).items():
            if name.startswith("_") and name not in ("__init__",) or not inspect.isfunction(member):
                continue
            signature = inspect.signature(member)
            unannotated = [p for p in signature.parameters.values() if p.name != "self" and p.annotation is p.empty]
            if unannotated or signature.return_annotation is signature.empty:
                missing.append(f"{owner.__name__}.{name}")
    assert missing == []


def _namespaces():
    from queryd_client import namespaces

    return [cls.__new__(cls) for cls in (namespaces.QueryAPI, namespaces.QueriesAPI, namespaces.MutationAPI,
                                         namespaces.MutationsAPI, namespaces.ServerAPI, namespaces.ClockAPI)]
