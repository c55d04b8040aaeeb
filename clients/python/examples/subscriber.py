"""A subscriber: prints every state of ["todos"] as it changes, until interrupted.

    python3 clients/python/examples/subscriber.py [SOCKET]
"""

import asyncio
import sys

from queryd_client import Client


async def main(path=None):
    async with Client.connect(path) as client:
        async for state in client.subscribe(["todos"], stale_time=30_000):
            print(f"{state.status:8} {state.fetch_status:9} {state.data}", flush=True)


if __name__ == "__main__":
    try:
        asyncio.run(main(*sys.argv[1:2]))
    except KeyboardInterrupt:
        pass
