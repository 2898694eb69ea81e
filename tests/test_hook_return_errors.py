"""Nothing a hook method returns can change a call's outcome or raise to its caller: an
error raised while toolhygiene examines or closes the returned value (a started
generator whose ``finally`` raises, a class whose attribute lookup raises) is one
``hook.failed``, as an error the hook raised itself is (recheck of issue 14, new 1)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import toolhygiene as th


@th.tool(retries=0)
def fails(x: int) -> int:
    """Fails.

    Args:
        x: x.
    """
    raise RuntimeError("kaboom")


@th.tool(retries=0)
def works(x: int) -> int:
    """Works.

    Args:
        x: x.
    """
    return x + 1


def _raising_on_close() -> Iterator[int]:
    try:
        yield 1
    finally:
        raise ValueError("its finally raises")


def _ignoring_exit() -> Iterator[int]:
    while True:
        try:
            yield 1
        except GeneratorExit:
            yield 2


def _started(make: Callable[[], Iterator[int]]) -> Callable[[], Any]:
    def start() -> Any:
        generator = make()
        next(generator)
        return generator

    return start


class _Meta(type):
    def __getattr__(cls, name: str) -> Any:
        raise RuntimeError(f"no {name}")


class _LookupRaises(metaclass=_Meta):
    pass


class _NoModule:
    __await__ = 1


_NoModule.__module__ = None  # type: ignore[assignment]

RETURNED: dict[str, Callable[[], Any]] = {
    "generator whose finally raises": _started(_raising_on_close),
    "generator that ignores GeneratorExit": _started(_ignoring_exit),
    "class whose attribute lookup raises": _LookupRaises,
    "awaitable class with no module": _NoModule,
}
METHODS = ("on_call", "on_outcome", "on_failure", "on_tail", "on_end")


def _hostile(make: Callable[[], Any]) -> th.Hooks:
    class Hostile(th.Hooks):
        pass

    for name in (*METHODS, "on_hook_failure"):
        setattr(Hostile, name, lambda self, *args: make())
    return Hostile()


class Breaks(th.Hooks):
    """Makes every other hook's ``on_hook_failure`` run."""

    def on_failure(self, event: th.HookEvent) -> None:
        raise RuntimeError("hook broke")


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("label", list(RETURNED))
def test_what_a_hook_returns_never_breaks_a_call(label: str, mode: str) -> None:
    removers = [th.add_hooks(Breaks()), th.add_hooks(_hostile(RETURNED[label]))]
    try:
        with th.testing.capture() as captured:
            session = th.Session([fails, works])
            if mode == "sync":
                failed = session.call("fails", {"x": 1}, call_id="c1")
                worked = session.call("works", {"x": 1}, call_id="c2")
                session.close()
            else:

                async def run() -> tuple[th.Outcome, th.Outcome]:
                    async with session:
                        first = await session.acall("fails", {"x": 1}, call_id="c1")
                        second = await session.acall("works", {"x": 1}, call_id="c2")
                    return first, second

                failed, worked = asyncio.run(run())
    finally:
        for remove in removers:
            remove()
    assert not failed.ok and "kaboom" in failed.content
    assert worked.ok and worked.value == 2
    methods = [e["method"] for e in captured.named("hook.failed") if e["hook"].endswith("Hostile")]
    assert sorted(set(methods)) == sorted(METHODS)  # each a hook.failed, none raised
