"""toolhygiene used wrongly is the developer's to fix: one ``UsageError`` line naming
what to change, raised to the developer where the mistake is made (a ``ToolError``'s
arguments, ``Session``'s tool list, ``@th.tool`` on what is not a function, ``call``'s
tool name, ``Failure.line``'s cap, a ``Settings`` snapshot), never a raw ``TypeError``
nor a line the model reads."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples


def refused(make: Callable[[], Any]) -> str:
    """The one line of the ``UsageError`` ``make`` raises."""
    with pytest.raises(th.UsageError) as raised:
        make()
    text = str(raised.value)
    assert "\n" not in text
    return text


# -- ToolError's own arguments -------------------------------------------------------------

WRONG_TOOL_ERRORS: list[tuple[dict[str, Any], str]] = [
    ({"retryable": "no"}, "retryable must be True or False"),
    ({"retryable": 1}, "retryable must be True or False"),
    ({"retryable": None}, "retryable must be True or False"),
    ({"retryable": False, "alternatives": "abc"}, "alternatives must be a list of strings"),
    ({"retryable": False, "alternatives": [1]}, "alternatives must be a list of strings"),
    ({"retryable": False, "alternatives": {"a": "b"}}, "alternatives must be a list of strings"),
    ({"retryable": True, "retry_after": -1}, "retry_after must be a finite number"),
    ({"retryable": True, "retry_after": math.nan}, "retry_after must be a finite number"),
    ({"retryable": True, "retry_after": -math.inf}, "retry_after must be a finite number"),
    ({"retryable": True, "retry_after": "5"}, "retry_after must be a finite number"),
    ({"retryable": True, "retry_after": True}, "retry_after must be a finite number"),
    ({"retryable": False, "retry_after": 5}, "give it only with retryable=True"),
    ({"retryable": False, "category": "bogus"}, "category must be one of connectivity"),
    ({"retryable": False, "category": ["auth"]}, "category must be one of connectivity"),
    ({"retryable": False, "instead": 3}, "instead must be a string"),
    ({"retryable": False, "alternatives": [""]}, "alternatives must not be blank"),
    ({"retryable": False, "alternatives": ["a", " "]}, "alternatives must not be blank"),
    ({"retryable": False, "retry_after": math.inf}, "give it only with retryable=True"),
]


@pytest.mark.parametrize(("given_", "said"), WRONG_TOOL_ERRORS)
def test_a_tool_error_checks_its_arguments_when_set_later_too(
    given_: dict[str, Any], said: str
) -> None:
    made = th.ToolError("it failed", retryable=given_.get("retryable") is not False)
    before = dict(vars(made))
    for name, value in given_.items():
        if name == "retryable" and isinstance(value, bool):
            continue  # a right value: only the wrong one is set later
        assert said in refused(lambda: setattr(made, name, value))  # noqa: B023
    assert vars(made) == before


def test_an_infinite_retry_after_is_the_longest_wait_kept() -> None:
    made = th.ToolError("busy", retryable=True, retry_after=math.inf)
    assert made.retry_after == th.configure().retry_after_ceiling
    assert "retry after at least 3600 s" in made.for_model("t")


@pytest.mark.parametrize(("given_", "said"), WRONG_TOOL_ERRORS)
def test_a_tool_error_checks_its_arguments(given_: dict[str, Any], said: str) -> None:
    assert said in refused(lambda: th.ToolError("it failed", **given_))


def test_a_tool_error_with_a_wrong_argument_reaches_the_developer_not_the_model() -> None:
    @th.tool
    def sync_tool() -> int:
        """Raise a ToolError made wrongly."""
        raise th.ToolError("it failed", retryable="no")  # type: ignore[arg-type]

    @th.tool
    async def async_tool() -> int:
        """Raise a ToolError made wrongly."""
        raise th.ToolError("it failed", retryable=False, alternatives="abc")

    session = th.Session([sync_tool, async_tool])
    assert "retryable must be True or False" in refused(lambda: session.call("sync_tool"))
    said = refused(lambda: asyncio.run(session.acall("async_tool")))
    assert "alternatives must be a list of strings" in said


@settings(max_examples=examples(100), deadline=None)
@given(st.booleans(), st.one_of(st.none(), st.floats(0, 1e6)),
       st.lists(st.text(min_size=1, max_size=20).filter(str.strip), max_size=3),
       st.sampled_from([None, *[c.value for c in th.Category], *th.Category]))
def test_every_right_tool_error_is_accepted(retryable: bool, wait: float | None,
                                            alternatives: list[str], category: Any) -> None:
    error = th.ToolError("it failed", retryable=retryable, retry_after=wait if retryable else None,
                         alternatives=alternatives, category=category)
    assert error.alternatives == tuple(alternatives) and error.retryable is retryable


# -- the developer's own misconfiguration ----------------------------------------------------


def get_order(order_id: str) -> str:
    """Look an order up."""
    return order_id


@pytest.mark.parametrize("tools", [
    get_order, th.tool(get_order), "get_order", {"get_order": get_order}, 5, None])
def test_a_session_takes_a_list_of_tools(tools: Any) -> None:
    assert refused(lambda: th.Session(tools)).startswith("Session takes a list of tools")


def test_any_iterable_of_tools_is_a_list_of_tools() -> None:
    session = th.Session(t for t in [get_order])
    assert session.call("get_order", {"order_id": "A1"}).ok


@pytest.mark.parametrize("thing", [int, dict])
def test_tool_of_a_builtin_with_no_signature_says_so(thing: Any) -> None:
    said = refused(lambda: th.tool(thing))
    assert "function" in said


def test_a_lambdas_name_points_to_name() -> None:
    said = refused(lambda: th.tool(lambda x: x))
    assert "tool(name=...)" in said
    assert th.tool(lambda x: x, name="echo").name == "echo"
    assert "tool(name=...)" not in refused(lambda: th.tool(get_order, name="a b"))


@pytest.mark.parametrize("name", ["ab\n", "a" * 64 + "\n", "\nab"])
def test_a_tool_name_with_a_newline_is_refused(name: str) -> None:
    assert "must be 1-64 letters" in refused(lambda: th.tool(get_order, name=name))


@pytest.mark.parametrize("name", [None, 5, b"get_order", ["get_order"]])
def test_the_tool_name_given_to_call_is_a_string(name: Any) -> None:
    session = th.Session([get_order])
    assert "must be a string" in refused(lambda: session.call(name, {}))
    assert "must be a string" in refused(lambda: asyncio.run(session.acall(name, {})))
    assert session.stats()["calls"] == 0


# -- Failure.line's cap, and th.configure's snapshot ----------------------------------------


@pytest.mark.parametrize("cap", [0, 10, 159, 65_537, True, 200.0, "300"])
def test_a_failure_line_cap_out_of_range_is_the_sessions_usage_error(cap: Any) -> None:
    failure = th.Session([th.tool(_fails)]).call("_fails").failure
    assert failure is not None
    said = refused(lambda: failure.line(cap))
    assert said.startswith("cap must be a whole number of at least 160")
    assert "line_cap must be a whole number of at least 160" in refused(
        lambda: th.Session([get_order], line_cap=cap))


def _fails() -> int:
    """Fail."""
    raise ValueError("no")


def test_a_failure_line_within_any_cap_from_the_least() -> None:
    failure = th.Session([th.tool(_fails)]).call("_fails").failure
    assert failure is not None and len(failure.line(160)) <= 160


def test_configures_settings_are_read_only() -> None:
    snapshot = th.configure()
    before = th.configure().line_cap
    assert "th.configure(line_cap=...)" in refused(lambda: setattr(snapshot, "line_cap", 1))
    assert "did you mean line_cap?" in refused(lambda: setattr(snapshot, "line_capp", 200))
    assert "is not a setting of th.configure" in refused(lambda: setattr(snapshot, "foo", 1))
    assert "cannot be deleted" in refused(lambda: delattr(snapshot, "logs"))
    assert th.configure().line_cap == before == snapshot.line_cap
    made = th.Settings(line_cap=400)
    assert made.line_cap == 400
    with th.configure(made):
        assert th.configure().line_cap == 400
    assert th.configure().line_cap == before
