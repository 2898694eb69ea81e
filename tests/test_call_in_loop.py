"""``call()`` inside a running event loop does what ``handle()`` does there: a sync tool
runs on a worker thread, never on the loop's thread (so ``asyncio.run`` inside it works
and the loop is not the tool's); an async tool is refused, pointing to ``acall()``."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import toolhygiene as th
from toolhygiene.testing import model_turn


async def _one() -> int:
    return 1


def _tools(threads: list[int]) -> list[th.Tool[..., Any]]:
    @th.tool
    def nested() -> str:
        """Run a coroutine of its own, as a sync library may."""
        threads.append(threading.get_ident())
        return f"inner {asyncio.run(_one())}"

    @th.tool
    async def later() -> str:
        """Async."""
        return "later"

    return [nested, later]


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
def test_call_and_handle_run_a_sync_tool_alike_inside_a_loop(fmt: str) -> None:
    threads: list[int] = []

    async def main() -> tuple[str, str, int]:
        session = th.Session(_tools(threads))
        messages: list[object] = [{"role": "user", "content": "go"}]
        session.handle(model_turn(fmt, [("nested", {})]), messages, format=fmt)  # type: ignore[arg-type]
        by_handle = session.stats()
        outcome = session.call("nested", {})
        assert by_handle["calls"] == 1
        return outcome.content, str(outcome.ok), threading.get_ident()

    content, ok, loop_thread = asyncio.run(main())
    assert (content, ok) == ("inner 1", "True")
    assert len(threads) == 2 and loop_thread not in threads


def test_call_of_an_async_tool_inside_a_loop_is_refused() -> None:
    async def main() -> None:
        session = th.Session(_tools([]))
        with pytest.raises(th.UsageError, match="use acall"):
            session.call("later", {})
        assert session.stats()["calls"] == 0

    asyncio.run(main())


def test_call_outside_a_loop_runs_on_the_callers_thread() -> None:
    threads: list[int] = []
    assert th.Session(_tools(threads)).call("nested", {}).content == "inner 1"
    assert threads == [threading.get_ident()]
