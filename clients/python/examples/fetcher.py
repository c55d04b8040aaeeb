"""A fetcher process: serves every key under ["todos"] until interrupted.

    python3 clients/python/examples/fetcher.py [SOCKET]
"""

import asyncio
import sys

from queryd_client import Client, HandlerError

TODOS = {1: "buy milk", 2: "walk the dog"}


async def fetch_todos(key, meta=None):
    # ["todos"] is the whole list; ["todos", id] is one item.
    if len(key) == 1:
        return [{"id": i, "title": t} for i, t in TODOS.items()]
    if key[1] not in TODOS:
        raise HandlerError("Not found", code=404, data={"id": key[1]})
    return {"id": key[1], "title": TODOS[key[1]]}


async def main(path=None):
    async with Client.connect(path) as client:
        await client.register_fetcher(["todos"], fetch_todos)
        print("serving ['todos']; Ctrl-C to stop", file=sys.stderr)
        await client.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main(*sys.argv[1:2]))
    except KeyboardInterrupt:
        pass
