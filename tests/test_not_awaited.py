"""A tool that returns an awaitable it never awaited (a forgotten ``await``, a sync
wrapper around an async function) did not do its work: the model reads a failure that
says so, never a success holding the awaitable's text, and the log names the developer's
mistake as a ``UsageError``."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import toolhygiene as th
from toolhygiene.testing import capture


async def work() -> int:
    return 1


class Pending:
    """An awaitable of the developer's own, with a readable ``repr``."""

    def __await__(self) -> Any:
        return work().__await__()

    def __repr__(self) -> str:
        return "Pending()"


def returning(make: Callable[[], Any]) -> th.Tool[[], Any]:
    @th.tool
    def forgot() -> Any:
        """Return what ``make`` gives."""
        return make()

    return forgot


def _future() -> asyncio.Future[int]:
    loop = asyncio.new_event_loop()
    try:
        return loop.create_future()
    finally:
        loop.close()


MADE: list[Any] = []


def _nested() -> dict[str, Any]:
    MADE.append(work())  # closed by the test: only a top-level coroutine is closed
    return {"rows": [1, MADE[-1]]}


SHAPES: dict[str, tuple[Callable[[], Any], str]] = {
    "coroutine": (work, "coroutine"),
    "nested coroutine": (_nested, "coroutine at rows[1]"),
    "own awaitable": (Pending, "Pending"),
    "future": (_future, "Future"),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_an_unawaited_result_is_a_failure_that_says_so(shape: str) -> None:
    make, said = SHAPES[shape]
    with warnings.catch_warnings(), capture() as seen:
        warnings.simplefilter("error", RuntimeWarning)  # a top-level coroutine is closed
        outcome = th.Session([returning(make)]).call("forgot", {})
    while MADE:
        MADE.pop().close()
    assert not outcome.ok
    assert f"holds a {said} that was never awaited" in outcome.content
    assert "did not do its work" in outcome.content
    assert "0x" not in outcome.content and "object at" not in outcome.content
    [failed] = seen.named("tool.failed")
    assert "UsageError: forgot returned a" in failed["exception"]
    assert "it did not await" in failed["exception"]


def test_an_async_tool_returning_a_coroutine_is_refused_too() -> None:
    @th.tool
    async def twice() -> Any:
        """Return a coroutine from a coroutine."""
        return work()

    outcome = asyncio.run(th.Session([twice]).acall("twice", {}))
    assert not outcome.ok and "coroutine that was never awaited" in outcome.content
