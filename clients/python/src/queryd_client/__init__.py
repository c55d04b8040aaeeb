"""queryd_client: talk to queryd (TanStack Query's cache as a daemon) from Python.

    import asyncio
    from queryd_client import Client

    async def main():
        async with Client.connect() as client:
            await client.register_fetcher(["todos"], lambda key: ["buy milk"])
            async for state in client.subscribe(["todos"]):
                print(state.status, state.data)

The asyncio ``Client`` is the main API; ``queryd_client.sync.Client`` wraps it for scripts.
Protocol: queryd protocol 1 (see protocol/README.md).
"""

__version__ = "0.1.0"

from .client import Client  # noqa: E402
from .errors import (  # noqa: E402
    CancelledByServer,
    ClientClosed,
    ConnectFailed,
    ConnectionLost,
    FetchFailed,
    HandlerError,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    MutationFailed,
    NoFetcher,
    ParseError,
    QuerydConnectionError,
    QuerydError,
    RequestCancelled,
    RPCError,
    TooManyConnections,
    UnknownID,
)
from .handlers import Registration  # noqa: E402
from .keys import socket_path  # noqa: E402
from .state import MutationState, PageResult, QueryState  # noqa: E402
from .subscription import MutationSubscription, Subscription  # noqa: E402

__all__ = [
    "CancelledByServer", "Client", "ClientClosed", "ConnectFailed", "ConnectionLost", "FetchFailed",
    "HandlerError", "InvalidParams", "InvalidRequest", "MethodNotFound", "MutationFailed",
    "MutationState", "MutationSubscription", "NoFetcher", "PageResult", "ParseError", "QueryState",
    "QuerydConnectionError", "QuerydError", "Registration", "RequestCancelled", "RPCError",
    "Subscription", "TooManyConnections", "UnknownID", "socket_path",
]
