"""A scripted stand-in for the daemon, for the cases the real daemon cannot produce on demand:
a protocol-1 or protocol-2 hello, unknown members and messages, patch pushes with a chosen base,
``$/closing``, paged ``queries.list``. Each accepted connection runs the test's ``script(peer)``.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Awaitable, Callable, Dict, List, Optional

HELLO_V2 = {
    "server": "queryd",
    "version": "9.9.9",
    "protocol": 2,
    "capabilities": ["query.get", "option:push"],
    "node": "n1",
    "epoch": "e1",
    "futureMember": {"ignored": True},
}


class PeerConnection:
    """One accepted connection: read the client's messages, write lines back."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def recv(self, timeout: float = 5) -> Dict[str, Any]:
        """The next message from the client (fails the test after ``timeout`` seconds)."""
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            raise EOFError("the client closed the connection")
        return json.loads(line)

    async def expect(self, method: str) -> Dict[str, Any]:
        """The next request, which must be ``method``."""
        message = await self.recv()
        assert message.get("method") == method, message
        return message

    def send(self, message: Dict[str, Any]) -> None:
        """Writes one message as a line."""
        self.writer.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")

    def reply(self, request: Dict[str, Any], result: Any) -> None:
        self.send({"id": request["id"], "result": result})

    def error(self, request: Dict[str, Any], code: int, message: str, data: Any = None) -> None:
        error: Dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self.send({"id": request["id"], "error": error})

    async def hello(self, result: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Answers the client's ``server.hello`` (protocol 2 by default); returns the request."""
        request = await self.expect("server.hello")
        self.reply(request, HELLO_V2 if result is None else result)
        return request

    def close(self) -> None:
        self.writer.close()


class FakePeer:
    """A Unix socket server running ``script`` for each connection; ``connections`` counts them."""

    def __init__(self, script: Callable[[PeerConnection], Awaitable[None]]) -> None:
        self.script = script
        self.path = f"/tmp/qd-fake-{os.getpid()}-{os.urandom(4).hex()}.sock"
        self.connections = 0
        self.failures: List[BaseException] = []
        self._server: Optional[asyncio.AbstractServer] = None

    async def __aenter__(self) -> "FakePeer":
        self._server = await asyncio.start_unix_server(self._accept, path=self.path)
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()
        if os.path.exists(self.path):
            os.unlink(self.path)
        if self.failures and exc_info[0] is None:
            raise self.failures[0]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        peer = PeerConnection(reader, writer)
        try:
            await self.script(peer)
        except (EOFError, ConnectionError):
            pass
        except BaseException as error:  # reported by __aexit__: a script assertion failed
            self.failures.append(error)
        finally:
            writer.close()
