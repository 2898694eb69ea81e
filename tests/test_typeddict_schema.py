"""A ``TypedDict`` argument's schema says what its validation does at every supported
pydantic: a TypedDict that refuses extra keys has ``additionalProperties: false`` (pydantic
2.10 and 2.11 left it out while refusing the keys, so the model read a schema that
allowed what the call then refused)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ConfigDict
from typing_extensions import NotRequired, TypedDict

import toolhygiene as th


class Inner(TypedDict):
    a: int


class Opts(TypedDict):
    fast: bool
    note: NotRequired[str]
    inner: Inner


class Loose(TypedDict, total=False):
    x: int


class Open(TypedDict):
    __pydantic_config__ = ConfigDict(extra="allow")  # type: ignore[misc]
    x: int


def takes_opts(opts: Opts, many: list[Inner], maybe: Loose | None = None) -> str:
    """Take dictionaries."""
    return "ok"


def takes_open(o: Open) -> str:
    """Take an open dictionary."""
    return "ok"


GOOD: dict[str, Any] = {"opts": {"fast": True, "inner": {"a": 1}}, "many": [{"a": 2}]}


def _definition(tool: th.Tool[..., Any], name: str) -> dict[str, Any]:
    definition: dict[str, Any] = tool.parameters["$defs"][name]
    return definition


@pytest.mark.parametrize(("name", "arguments"), [
    ("Opts", {**GOOD, "opts": {**GOOD["opts"], "extra": 1}}),
    ("Inner", {**GOOD, "opts": {"fast": True, "inner": {"a": 1, "extra": 1}}}),
    ("Inner", {**GOOD, "many": [{"a": 2, "extra": 1}]}),
    ("Loose", {**GOOD, "maybe": {"x": 1, "extra": 1}}),
])
def test_a_typeddict_that_refuses_extra_keys_says_so(name: str, arguments: dict[str, Any]) -> None:
    tool = th.tool(takes_opts)
    session = th.Session([tool])
    assert session.call("takes_opts", GOOD).ok
    outcome = session.call("takes_opts", arguments)
    assert not outcome.ok and "unexpected argument" in outcome.content, outcome.content
    assert _definition(tool, name).get("additionalProperties") is False


def test_a_typeddict_that_allows_extra_keys_says_so() -> None:
    tool = th.tool(takes_open)
    assert th.Session([tool]).call("takes_open", {"o": {"x": 1, "y": 2}}).ok
    assert _definition(tool, "Open").get("additionalProperties") is not False
