"""Infinite queries (pages) and mutations against the real daemon (wire: notes/wire-next.md)."""

import pytest
from support import run

from queryd_client import Client, HandlerError, MutationFailed, PageResult


def test_infinite_pages_forward_and_backward(daemon):
    async def main():
        calls = []

        async def pages(key, page_param=None, direction=None):
            calls.append((page_param, direction))
            return PageResult(
                [f"item {page_param}"],
                next_page_param=page_param + 1 if page_param < 2 else None,
                previous_page_param=page_param - 1 if page_param > 0 else None,
            )

        async with Client.connect(daemon.socket_path) as client:
            await client.register_fetcher(["feed"], pages)
            first = await client.query.fetch(["feed"], initial_page_param=1)
            assert first.data == {"pages": [["item 1"]], "pageParams": [1]}
            assert (first.has_next_page, first.has_previous_page) == (True, True)
            second = await client.query.fetch_next_page(["feed"])
            assert second.data == {"pages": [["item 1"], ["item 2"]], "pageParams": [1, 2]}
            assert second.has_next_page is False
            third = await client.query.fetch_previous_page(["feed"])
            assert third.data["pageParams"] == [0, 1, 2] and third.has_previous_page is False
            assert calls == [(1, "forward"), (2, "forward"), (0, "backward")]

    run(main())


def test_infinite_subscription_fetches_next_page(daemon):
    async def main():
        async with Client.connect(daemon.socket_path) as client:
            await client.register_fetcher(
                ["scroll"], lambda key, page_param: PageResult(page_param * 10, next_page_param=page_param + 1)
            )
            async with client.subscribe(["scroll"], infinite={"initial_page_param": 0, "max_pages": 2}) as sub:
                while (await sub.next(5)).fetch_status != "idle":
                    pass
                await sub.fetch_next_page()
                state = await sub.fetch_next_page()
                assert state.data == {"pages": [10, 20], "pageParams": [1, 2]}
                assert sub.state.data == state.data or sub.state.is_fetching_next_page

    run(main())


def test_mutation_runs_invalidates_and_reports_failure(daemon):
    async def main():
        received = []

        async def add_todo(key, variables):
            received.append((key, variables))
            if variables.get("title") == "":
                raise HandlerError("title required", code=422, data={"field": "title"})
            return {"id": 1, **variables}

        async with Client.connect(daemon.socket_path) as server, Client.connect(daemon.socket_path) as user:
            await server.register_mutator(["todos"], add_todo)
            await user.query.set(["todos", "list"], [])
            data = await user.mutation.run(
                ["todos", "add"], {"title": "milk"}, invalidate=[{"key": ["todos", "list"]}]
            )
            assert data == {"id": 1, "title": "milk"}
            assert received == [(["todos", "add"], {"title": "milk"})]
            assert (await user.query.state(["todos", "list"])).is_invalidated is True
            with pytest.raises(MutationFailed) as caught:
                await user.mutation.run(["todos", "add"], {"title": ""})
            assert caught.value.code == -32007 and caught.value.method == "mutation.run"
            assert caught.value.data == {"code": 422, "message": "title required", "data": {"field": "title"}}
            listed = await user.mutations.list()
            assert [m.status for m in listed][-2:] == ["success", "error"]

    run(main())
