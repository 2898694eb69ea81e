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
    """Its members decide as a group's do: a lasting ValueError next to a refusal makes the
    whole not retryable (issue 11 #8; it was connectivity, retryable)."""
    failure = th.classify(MultiError([ValueError("v"), refused()]))
    assert (failure.category, failure.retryable) == (C.BAD_REQUEST, False)
    assert th.classify(MultiError([refused()])).category is C.CONNECTIVITY


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


@pytest.mark.parametrize("order", ["bad first", "transient first"])
def test_a_group_mixing_a_lasting_and_a_transient_failure_is_not_transient(order: str) -> None:
    """A retry would meet the ValueError again: the group is retryable only if every member
    is, and the line keeps the lasting member's text (before: ``connectivity ... x (2
    sub-exceptions): no. Transient``, the ValueError's text dropped, the tool re-run)."""
    bad = raised(lambda: int("not a number"))
    assert isinstance(bad, ValueError)
    members: list[Exception] = [bad, refused()] if order == "bad first" else [refused(), bad]
    ran: list[int] = []

    @th.tool(retries=2)
    def fetch_all() -> str:
        """Fetch from two sources at once."""
        ran.append(1)
        raise ExceptionGroup("fetching failed", members)

    outcome = th.Session([fetch_all]).call("fetch_all")
    failure = outcome.failure
    assert failure is not None and not failure.retryable
    assert failure.category is C.BAD_REQUEST and len(ran) == 1
    assert "2 failures: first invalid literal for int()" in outcome.content
    assert "Connection refused" in outcome.content and "Transient" not in outcome.content
    assert failure.exc_type.endswith("ExceptionGroup")


def test_a_group_whose_members_are_all_transient_stays_transient() -> None:
    group = ExceptionGroup("fetching failed", [refused(), refused()])
    failure = th.classify(group, "fetch_all")
    assert failure.retryable and failure.category is C.CONNECTIVITY
