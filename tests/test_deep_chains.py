"""A deep ``__context__`` chain built by really raising costs a failure no more
than an ordinary one: nothing is classified or logged while the failing exception is
still being handled (then every exception raised, even one caught at once inside
``getattr``, would walk the whole chain), and the log says the chain was cut and how
deep it is. Speed itself is measured in benchmarks/hostile.py."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import toolhygiene as th

# Private imports, by design (internal units under test): the traceback walker's own limits and the chain-depth reader.
from toolhygiene._log import CHAIN_COUNTED, TRACEBACK_EXCEPTIONS
from toolhygiene._reading import depth


def raised_chain(links: int) -> BaseException:
    """Each exception raised while handling the one before: a real ``__context__`` chain."""
    exc: BaseException | None = None
    for i in range(links):
        try:
            try:
                if exc is not None:
                    raise exc
                raise ConnectionResetError(104, "reset by peer")
            except Exception:
                raise RuntimeError(f"while handling {i}")  # noqa: B904 - the context is the point
        except Exception as caught:
            exc = caught
    assert exc is not None
    return exc


class Handling(th.Hooks):
    """Records, for every event, the exception being handled when it was sent."""

    def __init__(self) -> None:
        self.handled: list[Any] = []

    def on_failure(self, event: Any) -> None:
        self.handled.append(sys.exc_info()[1])

    on_retry = on_failure


@pytest.fixture
def handling() -> Iterator[Handling]:
    hooks = Handling()
    remove = th.add_hooks(hooks)
    yield hooks
    remove()


@pytest.fixture(scope="module")
def deep() -> BaseException:
    return raised_chain(3_000)  # really raising is quadratic in CPython: 100,000 takes minutes


def _raiser(exc: BaseException, retries: int = 0) -> th.Tool[[], None]:
    @th.tool(name="broken", retries=retries)
    def broken() -> None:
        raise exc.with_traceback(None)

    return broken


@pytest.mark.parametrize("retries", [0, 2])
def test_call_logs_no_failure_while_the_exception_is_handled(
    deep: BaseException, handling: Handling, retries: int
) -> None:
    with th.testing.instant_retries():
        outcome = th.Session([_raiser(deep, retries)]).call("broken")
    assert not outcome.ok and handling.handled
    assert handling.handled == [None] * len(handling.handled)


@pytest.mark.parametrize("retries", [0, 2])
def test_acall_logs_no_failure_while_the_exception_is_handled(
    deep: BaseException, handling: Handling, retries: int
) -> None:
    with th.testing.instant_retries():
        outcome = asyncio.run(th.Session([_raiser(deep, retries)]).acall("broken"))
    assert not outcome.ok and handling.handled
    assert handling.handled == [None] * len(handling.handled)


def test_the_log_says_the_chain_was_cut_and_how_deep(deep: BaseException) -> None:
    with th.testing.capture() as seen:
        th.Session([_raiser(deep)]).call("broken")
    (failed,) = seen.named("tool.failed")
    assert failed["exception"].count("Traceback (most recent call last)") == TRACEBACK_EXCEPTIONS
    assert (f"(the chain was cut: it is more than {CHAIN_COUNTED - 1:,} exceptions deep; "
            f"only its first {TRACEBACK_EXCEPTIONS} are shown)") in failed["exception"]


def test_a_shorter_cut_chain_is_told_exactly() -> None:
    with th.testing.capture() as seen:
        th.Session([_raiser(raised_chain(40))]).call("broken")
    assert "it is 41 exceptions deep" in seen.named("tool.failed")[0]["exception"]


def test_depth_follows_causes_and_unsuppressed_contexts() -> None:
    cause = ValueError("cause")
    outer = RuntimeError("outer")
    outer.__cause__ = cause
    assert depth(outer, 10) == 2 and depth(ValueError(), 10) == 1
    suppressed = RuntimeError("suppressed")
    suppressed.__context__ = cause
    suppressed.__suppress_context__ = True
    assert depth(suppressed, 10) == 1
    loop_a, loop_b = ValueError("a"), ValueError("b")
    loop_a.__context__, loop_b.__context__ = loop_b, loop_a
    assert depth(loop_a, 10) == 10  # a cycle is counted to the limit, never forever
