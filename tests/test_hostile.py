"""Hostile exceptions never break the loop and always give one line within the cap;
BaseExceptions that are not Exceptions always propagate."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

import pytest

import toolhygiene as th

if sys.version_info < (3, 11):
    from exceptiongroup import ExceptionGroup


class StrRaises(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no str for you")


class StrNotStr(Exception):
    def __str__(self) -> Any:
        return 42  # noqa: PLE0307


class StrRecurses(Exception):
    def __str__(self) -> str:
        return str(self)


class StrMemory(Exception):
    def __str__(self) -> str:
        raise MemoryError


def cyclic() -> Exception:
    a, b = ValueError("a"), KeyError("b")
    a.__context__, b.__context__ = b, a
    return a


def deep_chain() -> Exception:
    exc: Exception = RuntimeError("root")
    for i in range(10_000):
        nxt = RuntimeError(f"level {i}")
        nxt.__cause__ = exc
        exc = nxt
    return exc


def nested_groups() -> BaseException:
    exc: Exception = ValueError("leaf")
    for i in range(200):
        exc = ExceptionGroup(f"g{i}", [exc, RuntimeError(str(i))])
    return exc


HOSTILE: dict[str, Callable[[], BaseException]] = {
    "str raises": lambda: StrRaises(),
    "str returns int": lambda: StrNotStr(),
    "str recurses": lambda: StrRecurses(),
    "str memory error": lambda: StrMemory(),
    "10 MB message": lambda: RuntimeError("x" * 10_000_000),
    "10 MB one line of secrets": lambda: RuntimeError("password=hunter2 " * 600_000),
    "empty message": lambda: RuntimeError(),
    "bytes message": lambda: ValueError(b"\xff\xfe bytes \x00"),
    "key error quoting": lambda: KeyError("it's \"quoted\""),
    "cyclic context": cyclic,
    "deep cause chain": deep_chain,
    "recursion error": lambda: RecursionError("maximum recursion depth exceeded"),
    "memory error": lambda: MemoryError(),
    "newlines and ansi": lambda: RuntimeError("line1\nline2\r\n\x1b[31mred\x1b[0m\u202eevil"),
    "many args": lambda: RuntimeError(*range(1000)),
    "nested groups": nested_groups,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_exception_gives_one_line_within_the_cap(name: str) -> None:
    line = th.summarize(HOSTILE[name](), "tool")
    assert line.startswith("[error] tool: ")
    assert len(line) <= 300
    assert "\n" not in line and "\r" not in line and "\x1b" not in line


def test_unreadable_message_is_said_so() -> None:
    assert "StrRaises (its message could not be read)" in th.summarize(StrRaises(), "t")


def test_empty_message_names_the_type() -> None:
    assert "RuntimeError with no message" in th.summarize(RuntimeError(), "t")


def test_secrets_in_a_huge_message_do_not_survive() -> None:
    line = th.summarize(RuntimeError("password=hunter2 " * 600_000), "t")
    assert "hunter2" not in line


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_exception_through_a_session(name: str, instant: None) -> None:
    exc = HOSTILE[name]()

    @th.tool
    def broken() -> None:
        raise exc

    with th.testing.capture() as seen, th.Session([broken]) as session:
        outcome = session.call("broken")
    assert not outcome.ok
    assert len(outcome.content) <= 300 and "\n" not in outcome.content
    failed = seen.named("tool.failed")
    assert failed
    assert "Traceback (most recent call last)" in failed[0]["exception"]


@pytest.mark.parametrize("kind", [KeyboardInterrupt, SystemExit, GeneratorExit,
                                  asyncio.CancelledError])
def test_base_exceptions_propagate_from_call(kind: type[BaseException]) -> None:
    @th.tool
    def stop() -> None:
        raise kind()

    session = th.Session([stop])
    with pytest.raises(kind):
        session.call("stop")
    assert session.stats()["failures"] == {}


@pytest.mark.parametrize("kind", [KeyboardInterrupt, SystemExit, asyncio.CancelledError])
async def test_base_exceptions_propagate_from_acall(kind: type[BaseException]) -> None:
    @th.tool
    async def stop() -> None:
        raise kind()

    session = th.Session([stop])
    with pytest.raises(kind):
        await session.acall("stop")


def test_base_exception_during_local_retry_propagates(instant: None) -> None:
    calls = []

    @th.tool
    def flaky() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise ConnectionResetError(104, "Connection reset by peer")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        th.Session([flaky]).call("flaky")
    assert len(calls) == 2
