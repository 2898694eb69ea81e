"""Advice the model reads is true of the failure it follows: only argument validation,
which knows the model's arguments were wrong, tells it to fix its arguments; a tool's own
code raising a bad-request kind of error (a ValueError, a TypeError, a service's 400, a
pydantic model inside the tool) does not know that, least of all in a tool with no
arguments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

import toolhygiene as th
from helpers import examples


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


# -- refused arguments: every one named with its reason, the bounds in the summary ----------

BAD: dict[str, tuple[Any, str]] = {
    "color": ("green", "must be 'red' or 'blue'"),
    "n": (9, "less than or equal to 5"),
    "label": ("x" * 30, "at most 8 characters"),
    "ratio": (3, "less than 1"),
    "tags": (["a"] * 5, "at most 3 items"),
}


@th.tool
def paint(color: Literal["red", "blue"] = "red", n: Annotated[int, Field(ge=1, le=5)] = 1,
          label: Annotated[str, Field(max_length=8)] = "",
          ratio: Annotated[float, Field(gt=0, lt=1)] = 0.5,
          tags: Annotated[list[str], Field(max_length=3)] = []) -> str:  # noqa: B006
    """Paint."""
    return color


def test_the_summary_states_each_arguments_bounds() -> None:
    assert paint.signature_text() == (
        'color: one of "red", "blue" (optional), n: a whole number from 1 to 5 (optional), '
        "label: a string of at most 8 characters (optional), ratio: a number above 0 and "
        "below 1 (optional), tags: a list of at most 3 items (optional)")
    assert th.tool(lambda_free).signature_text() == (
        "a: a whole number of at least 1, b: a string of 2 to 4 characters, "
        "c: a number of at most 2.5")


def lambda_free(a: Annotated[int, Field(ge=1)], b: Annotated[str, Field(min_length=2,
                max_length=4)], c: Annotated[float, Field(le=2.5)]) -> int:
    """Bounds of one side, and of a string's length."""
    return a


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sampled_from(sorted(BAD)), min_size=1, max_size=5, unique=True),
       st.integers(min_value=200, max_value=700))
def test_every_refused_argument_is_named_within_the_cap(bad: list[str], cap: int) -> None:
    session = th.Session([paint], line_cap=cap, max_failures=1000)
    line = session.call("paint", {name: BAD[name][0] for name in bad}).content
    assert len(line) <= cap
    for name in bad:
        assert f"'{name}'" in line, line
    if cap >= 300 and len(bad) <= 2:  # the default cap has room for two reasons whole
        for name in bad:
            assert BAD[name][1] in line, line


def test_the_lowest_cap_still_names_every_argument() -> None:
    session = th.Session([paint], line_cap=160, max_failures=1000)
    line = session.call("paint", {name: value for name, (value, _) in BAD.items()}).content
    assert len(line) <= 160 and all(f"'{name}'" in line for name in BAD), line
