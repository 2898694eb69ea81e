"""A tool that returns an awaitable it never awaited (a forgotten ``await``, a sync
wrapper around an async function) did not do its work: the model reads a failure that
says so, never a success holding the awaitable's text, and the log names the developer's
mistake as a ``UsageError``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
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


async def stream() -> Any:
    yield 1


def numbers() -> Any:
    yield 1


def _submitted() -> concurrent.futures.Future[int]:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(int)


SHAPES: dict[str, tuple[Callable[[], Any], str]] = {
    "coroutine": (work, "a coroutine"),
    "nested coroutine": (_nested, "a coroutine at rows[1]"),
    "own awaitable": (Pending, "an awaitable (Pending)"),
    "future": (_future, "an asyncio Future"),
    "concurrent future": (_submitted, "a concurrent.futures Future"),
    "async generator": (stream, "an async generator"),
    "generator": (numbers, "a generator"),
    "unstarted thread": (lambda: threading.Thread(target=int), "a Thread"),
    "async function itself": (lambda: work, "an async function (never called)"),
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
    assert f"holds {said}: work never awaited or collected" in outcome.content
    assert "did not do its work" in outcome.content
    assert "0x" not in outcome.content and "object at" not in outcome.content
    [failed] = seen.named("tool.failed")
    assert f"UsageError: forgot returned {said.split(' at ')[0]} instead of" in failed["exception"]


def test_an_async_tool_returning_a_coroutine_is_refused_too() -> None:
    @th.tool
    async def twice() -> Any:
        """Return a coroutine from a coroutine."""
        return work()

    outcome = asyncio.run(th.Session([twice]).acall("twice", {}))
    assert not outcome.ok and "coroutine: work never awaited" in outcome.content


@pytest.mark.parametrize("value", [len, int, lambda: 1, object().__str__])
def test_a_function_or_a_class_is_never_read_as_its_repr(value: Any) -> None:
    outcome = th.Session([returning(lambda: value)]).call("forgot", {})
    assert not outcome.ok and "which has no JSON form" in outcome.content
    assert "0x" not in outcome.content and "<" not in outcome.content


def test_a_hook_returning_pending_work_is_named_by_the_same_words() -> None:
    from toolhygiene._observe import _unawaited
    from toolhygiene._words import pending_kind

    thread = threading.Thread(target=int)
    with pytest.raises(TypeError, match=f"returned {pending_kind(thread)},"):
        _unawaited(object(), "on_call", thread)
