"""A hook method that hands back work still to run (a coroutine, a generator, an async
generator, an asyncio Future or Task, a ``concurrent.futures.Future``, any object with
``__await__``) is one ``hook.failed`` naming the hook, its method and what it returned,
in sync and async calls alike, for every hook method: toolhygiene never awaits a hook.
An ``async def`` hook method is refused when added, however it was made."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from typing import Any

import pytest

import toolhygiene as th
from helpers import Call, app_logger


@th.tool(retries=0)
def fails(x: str) -> str:
    """Fails.

    Args:
        x: x.
    """
    raise ValueError("nope")


class Awaitable:
    """Not a coroutine, not a Future: an object with ``__await__`` of its own."""

    def __await__(self) -> Generator[Any, None, None]:
        yield None


async def _work() -> None:
    return None


async def _agen() -> AsyncIterator[None]:
    yield None


def _gen() -> Iterator[None]:
    yield None


def _asyncio_future() -> Any:
    loop = asyncio.new_event_loop()
    try:
        return loop.create_future()
    finally:
        loop.close()


RETURNS: dict[str, tuple[Callable[[], Any], str]] = {
    "coroutine": (_work, "returned a coroutine"),
    "generator": (_gen, "returned a generator"),
    "async generator": (_agen, "returned an async generator"),
    "asyncio Future": (_asyncio_future, "returned an asyncio Future"),
    "concurrent Future": (concurrent.futures.Future, "returned a concurrent.futures Future"),
    "custom awaitable": (Awaitable, "returned an awaitable (Awaitable)"),
}

METHODS = ["on_failure", "on_call", "on_outcome", "on_end"]


def _returning(method: str, make: Callable[[], Any]) -> th.Hooks:
    """Hooks whose ``method`` is a plain function that returns ``make()``."""
    hooks = th.Hooks()
    setattr(hooks, method, lambda *args: make())
    return hooks


def _failed(seen: Any, method: str) -> list[dict[str, Any]]:
    return [e for e in seen.named("hook.failed") if e["method"] == method]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("kind", list(RETURNS))
def test_returned_pending_work_is_one_hook_failure(
    kind: str, method: str, call: Callable[[th.Session], Call]
) -> None:
    make, words = RETURNS[kind]
    with th.testing.capture() as seen:
        remove = th.add_hooks(_returning(method, make))
        try:
            with th.Session([fails]) as session:
                outcome = call(session)("fails", {"x": "1"})
        finally:
            remove()
    assert not outcome.ok and outcome.failure is not None  # the call answered, unbroken
    [failed] = _failed(seen, method)
    assert failed["hook"] == "Hooks"
    assert words in failed["exception"] and "never runs or awaits" in failed["exception"]
    assert failed["session.id"] == session.id


def test_a_task_returned_in_an_async_call_is_a_hook_failure_and_still_runs() -> None:
    """An asyncio Task is not awaited (as in a sync call) and not cancelled: its work
    goes on, and the warning says nothing waits for it."""
    ran: list[str] = []

    async def send(event: th.HookEvent) -> None:
        ran.append(event.name)

    hooks = th.Hooks()
    hooks.on_failure = lambda event: asyncio.get_running_loop().create_task(send(event))  # type: ignore[method-assign,assignment]

    async def main() -> th.Outcome:
        outcome = await session.acall("fails", {"x": "1"})
        await asyncio.sleep(0)
        return outcome

    with th.testing.capture() as seen:
        remove = th.add_hooks(hooks)
        try:
            session = th.Session([fails])
            asyncio.run(main())
        finally:
            remove()
    [failed] = _failed(seen, "on_failure")
    assert "returned an asyncio Task" in failed["exception"]
    assert ran == ["tool.failed"]


@pytest.mark.parametrize("value", [0, "sent", [1], True, 3.5])
def test_an_incidental_return_value_is_no_failure(value: Any) -> None:
    """A lambda's value (a counter's, ``list.append``'s) is no work left undone."""
    with th.testing.capture() as seen:
        remove = th.add_hooks(_returning("on_failure", lambda: value))
        try:
            th.Session([fails]).call("fails", {"x": "1"})
        finally:
            remove()
    assert seen.named("tool.failed") and not seen.named("hook.failed")


@pytest.mark.parametrize("kind", list(RETURNS))
def test_on_hook_failure_returning_pending_work_is_logged_once(kind: str) -> None:
    """``on_hook_failure`` behaves as every other hook method: what it hands back is a
    ``hook.failed``, given to the log output only (never passed around again)."""
    make, words = RETURNS[kind]

    class Breaks(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            raise RuntimeError("hook broke")

    logger, handler = app_logger("toolhygiene-test-hook-returns")
    removers = [th.add_hooks(Breaks()), th.add_hooks(_returning("on_hook_failure", make))]
    try:
        with th.configure(logs=logger):
            th.Session([fails]).call("fails", {"x": "1"})
    finally:
        for remove in removers:
            remove()
        logger.removeHandler(handler)  # a fresh one for each case
    failed = [
        r.toolhygiene  # type: ignore[attr-defined]
        for r in handler.records
        if r.toolhygiene["event"] == "hook.failed"  # type: ignore[attr-defined]
    ]
    assert [(f["hook"], f["method"]) for f in failed] == [
        (
            "test_on_hook_failure_returning_pending_work_is_logged_once.<locals>.Breaks",
            "on_failure",
        ),
        ("Hooks", "on_hook_failure"),
    ]
    assert words in failed[1]["exception"]


class AsyncCall:
    async def __call__(self, event: th.HookEvent) -> None:
        return None


async def _async_function(event: th.HookEvent) -> None:
    return None


def _set(method: Any) -> Callable[[], th.Hooks]:
    def make() -> th.Hooks:
        hooks = th.Hooks()
        hooks.on_failure = method  # type: ignore[method-assign]
        return hooks

    return make


@pytest.mark.parametrize(
    "make",
    [
        _set(_async_function),
        _set(functools.partial(_async_function)),
        _set(AsyncCall()),
        _set(functools.partial(AsyncCall())),
    ],
    ids=["function", "partial", "callable object", "partial of a callable object"],
)
def test_async_hook_methods_are_refused_however_they_were_made(
    make: Callable[[], th.Hooks],
) -> None:
    with pytest.raises(th.UsageError, match=r"Hooks\.on_failure is async def"):
        th.add_hooks(make())
