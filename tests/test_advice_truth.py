"""Advice the model reads is true of the failure it follows: only argument validation,
which knows the model's arguments were wrong, tells it to fix its arguments; a tool's own
code raising a bad-request kind of error (a ValueError, a TypeError, a service's 400, a
pydantic model inside the tool) does not know that, least of all in a tool with no
arguments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pydantic
import pytest

import toolhygiene as th


class Inner(pydantic.BaseModel):
    a: int


def _pydantic() -> None:
    Inner.model_validate({"a": "x"})


RAISERS: dict[str, Callable[[], Any]] = {
    "ValueError": lambda: int("abc"),
    "TypeError": lambda: len(5),  # type: ignore[arg-type]
    "ArithmeticError": lambda: 1 / 0,
    "UnicodeError": lambda: b"\xff".decode("utf-8"),
    "pydantic": _pydantic,
    "ToolError": lambda: (_ for _ in ()).throw(
        th.ToolError("the warehouse refused it", retryable=False, category="bad_request")),
}

ARGUMENTS_WORDS = ("Fix the arguments", "arguments matching", "Change the arguments", "schema")


def _tools(raise_it: Callable[[], Any]) -> list[th.Tool[..., Any]]:
    @th.tool
    def bare() -> int:
        """Takes nothing."""
        raise_it()
        return 1

    @th.tool
    def takes(days: int) -> int:
        """Takes a number of days."""
        raise_it()
        return days

    return [bare, takes]


@pytest.mark.parametrize("kind", sorted(RAISERS))
def test_a_tools_own_bad_request_never_says_fix_the_arguments(kind: str) -> None:
    session = th.Session(_tools(RAISERS[kind]))
    for name, arguments in (("bare", {}), ("takes", {"days": 3})):
        outcome = session.call(name, arguments)
        assert not outcome.ok and outcome.failure is not None
        assert outcome.failure.category is th.Category.BAD_REQUEST, outcome.content
        assert not any(words in outcome.content for words in ARGUMENTS_WORDS), outcome.content
        assert "tell the user what failed" in outcome.content


def test_argument_validation_still_points_to_the_schema() -> None:
    session = th.Session(_tools(lambda: None))
    outcome = session.call("takes", {"days": "many"})
    assert not outcome.ok
    assert "Call takes again with arguments matching its schema: days: a whole number" in (
        outcome.content)
