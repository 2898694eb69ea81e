"""Exception groups are classified by their members on every Python: the builtin groups of
3.11+, the ``exceptiongroup`` backport's on 3.10 (what anyio and trio raise there), and
anything else that carries an ``exceptions`` sequence of exceptions."""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable
from typing import Any

import anyio
import pytest

import toolhygiene as th
from helpers import raised
from toolhygiene.testing import closed_port

if sys.version_info < (3, 11):  # builtins since 3.11
    from exceptiongroup import BaseExceptionGroup, ExceptionGroup

C = th.Category


def refused() -> ConnectionRefusedError:
    """A real refusal: a connect to a loopback port nothing listens on."""
    with socket.socket() as sock:
        exc = raised(lambda: sock.connect(("127.0.0.1", closed_port())))
    assert isinstance(exc, ConnectionRefusedError)
    return exc


def anyio_group(*jobs: Callable[[], Any]) -> BaseException:
    """What anyio raises when tasks of a task group fail: a group on every Python."""

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for job in jobs:
                tg.start_soon(anyio.to_thread.run_sync, job)

    return raised(lambda: anyio.run(main))


def connect_to_nothing() -> None:
    with socket.create_connection(("127.0.0.1", closed_port()), timeout=5):
        pass


def test_anyio_group_of_a_refused_connection_is_connectivity_that_never_ran() -> None:
    exc = anyio_group(connect_to_nothing)
    assert isinstance(exc, BaseExceptionGroup)  # the backport's class on 3.10
    failure = th.classify(exc, "fetch")
    assert (failure.category, failure.retryable, failure.never_ran) == (C.CONNECTIVITY, True, True)
    assert "Connection refused" in failure.message


def test_anyio_group_members_pick_the_most_specific_verdict() -> None:
    def bad_value() -> None:
        raise RuntimeError("something odd")

    exc = anyio_group(bad_value, connect_to_nothing)
    assert th.classify(exc).category is C.CONNECTIVITY


def test_a_group_from_anyio_is_retried_locally_through_a_session(instant: None) -> None:
    """Retryable means retried: the tool's group is a transient failure, run again."""
    attempts = []

    @th.tool(retries=2)
    def fetch() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise anyio_group(connect_to_nothing)
        return "fetched"

    outcome = th.Session([fetch]).call("fetch")
    assert (outcome.ok, outcome.value, outcome.attempts) == (True, "fetched", 3)


def test_nested_groups_are_walked() -> None:
    group = ExceptionGroup("several", [RuntimeError("x"), ExceptionGroup("inner", [refused()])])
    failure = th.classify(group)
    assert failure.category is C.CONNECTIVITY and failure.never_ran


class MultiError(Exception):
    """A group of a library that predates ``ExceptionGroup`` (trio's old MultiError)."""

    def __init__(self, exceptions: list[BaseException]) -> None:
        super().__init__(f"{len(exceptions)} errors")
        self.exceptions = exceptions


def test_any_exception_with_an_exceptions_sequence_is_a_group() -> None:
    failure = th.classify(MultiError([ValueError("v"), refused()]))
    assert (failure.category, failure.retryable) == (C.CONNECTIVITY, True)


@pytest.mark.parametrize("members", [
    "not a sequence of exceptions", ["a", "b"], [], None, 42, {"x": ValueError()},
])
def test_an_exceptions_attribute_of_other_things_is_not_a_group(members: Any) -> None:
    exc = MultiError([])
    exc.exceptions = members
    assert th.classify(exc).category is C.UNKNOWN


class Hostile(Exception):
    @property
    def exceptions(self) -> list[BaseException]:
        raise RuntimeError("no members for you")


def test_an_exceptions_property_that_raises_gives_one_line() -> None:
    failure = th.classify(Hostile("boom"), "tool")
    assert failure.category is C.UNKNOWN
    assert failure.line().startswith("[error] tool: unknown. boom.")


def test_a_group_that_contains_itself_terminates() -> None:
    group = MultiError([])
    group.exceptions = [group, refused()]
    assert th.classify(group).category is C.CONNECTIVITY
