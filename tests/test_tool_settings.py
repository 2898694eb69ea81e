"""A tool's settings behave like a Session's: one table of checks at construction (the
decorator's arguments) and on every later set, a misspelt setting refused with the near
match, a setting that cannot be deleted, and what a tool is built on (its name, its
function) refused once set. Whatever is tried, no call tells the model a false line
such as "'Tool' object has no attribute 'timeout'"."""

from __future__ import annotations

import asyncio
import functools
import inspect
import string
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, raised

SETTINGS = [
    name for name, parameter in inspect.signature(th.Tool).parameters.items()
    if parameter.kind is inspect.Parameter.KEYWORD_ONLY and name != "localns"
]
"""Every setting of a tool, read off the public constructor (``localns`` is how its
annotations are read, not a setting)."""


def test_the_settings_are_what_the_decorator_takes() -> None:
    """The decorator and the class take the same settings, so both are covered."""
    decorator = [name for name, parameter in inspect.signature(th.tool).parameters.items()
                 if parameter.kind is inspect.Parameter.KEYWORD_ONLY]
    assert sorted(decorator) == sorted(SETTINGS) and len(SETTINGS) == 16


def _lookup(city: str) -> str:
    """Look up a city."""
    return f"sunny in {city}"


async def _alookup(city: str) -> str:
    """Look up a city."""
    await asyncio.sleep(0)
    return f"sunny in {city}"


def _region_lookup(region: str, city: str) -> str:
    """Look up a city in a region."""
    return f"sunny in {city}"


class _Weather:
    def lookup(self, city: str) -> str:
        """Look up a city."""
        return f"sunny in {city}"

    async def alookup(self, city: str) -> str:
        """Look up a city."""
        return f"sunny in {city}"

    def __call__(self, city: str) -> str:
        """Look up a city."""
        return f"sunny in {city}"


class _Method:
    @th.tool
    def lookup(self, city: str) -> str:
        """Look up a city."""
        return f"sunny in {city}"


FORMS: dict[str, Callable[[], th.Tool[..., Any]]] = {
    "sync function": lambda: th.tool(_lookup),
    "async function": lambda: th.tool(_alookup),
    "decorator with arguments": lambda: th.tool(retries=1, timeout=5.0)(_lookup),
    "th.Tool": lambda: th.Tool(_lookup, name="lookup"),
    "partial": lambda: th.tool(functools.partial(_region_lookup, "eu"), name="lookup"),
    "bound method": lambda: th.tool(_Weather().lookup),
    "async bound method": lambda: th.tool(_Weather().alookup),
    "callable object": lambda: th.tool(_Weather(), name="lookup"),
    "method decorated in its class": lambda: _Method().lookup,
}
"""Every way a tool is made: each one's settings are the same table's."""


def _runs_true(tool: th.Tool[..., Any]) -> None:
    """A call through a Session succeeds with the tool's own answer."""
    session = th.Session([tool])
    if tool.is_async:
        outcome = asyncio.run(session.acall(tool.name, {"city": "Paris"}))
    else:
        outcome = session.call(tool.name, {"city": "Paris"})
    assert outcome.ok and outcome.content == "sunny in Paris", outcome.content


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("name", "meant"), [
    ("retires", "retries"), ("timout", "timeout"), ("max_failure", "max_failures"),
    ("idempotnt", "idempotent"), ("untrustd", "untrusted"), ("redact_result", "redact_results"),
    ("resultcap", "result_cap"), ("upstrem", "upstream"), ("descripton", "description"),
    ("strcit", "strict"), ("input_example", "input_examples"), ("cache_contrl", "cache_control"),
    ("defer_load", "defer_loading"), ("insted", "instead"), ("nmae", "name"),
    ("retry", "retries"), ("max_retries", "retries"), ("tool_timeout", "timeout"),
])
def test_a_misspelt_tool_setting_is_refused_naming_the_setting(
        form: str, name: str, meant: str) -> None:
    """Before: ``tool.retires = 3`` was kept as a new attribute and did nothing."""
    tool = FORMS[form]()
    refused = raised(lambda: setattr(tool, name, 3))
    assert isinstance(refused, th.UsageError)
    assert str(refused) == f"{name} is not a tool setting: did you mean {meant}?"
    assert name not in vars(tool)
    _runs_true(tool)


def test_an_attribute_of_the_program_that_is_no_near_miss_is_its_own_business() -> None:
    tool = th.tool(_lookup)
    tool.label = "weather"
    tool._scratch = 1
    del tool.label  # type: ignore[attr-defined]
    assert not hasattr(tool, "label") and tool._scratch == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", [*SETTINGS, "fn", "is_async"])
def test_no_setting_of_a_tool_can_be_deleted(form: str, name: str) -> None:
    """Before: ``del tool.timeout`` made every call tell the model "'Tool' object has no
    attribute 'timeout'", as if the tool had failed."""
    tool = FORMS[form]()
    before = getattr(tool, name)
    refused = raised(lambda: delattr(tool, name))
    assert isinstance(refused, th.UsageError) and "\n" not in str(refused)
    assert str(refused).startswith(f"{name} is a tool setting and cannot be deleted")
    assert getattr(tool, name) == before
    _runs_true(tool)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("name", "value"), [
    ("name", "other_name"), ("name", 5), ("fn", print), ("is_async", True),
])
def test_what_a_tool_is_built_on_cannot_change(form: str, name: str, value: Any) -> None:
    """Before: ``tool.name = 5`` was kept, and the next ``Session()`` raised a raw
    TypeError; a name changed after a Session took the tool would leave the Session
    finding it under the old one."""
    tool = FORMS[form]()
    before = getattr(tool, name)
    refused = raised(lambda: setattr(tool, name, value))
    assert isinstance(refused, th.UsageError) and "\n" not in str(refused)
    assert str(refused).startswith(f"{name} cannot change")
    assert getattr(tool, name) == before
    _runs_true(tool)


@pytest.mark.parametrize(("name", "value", "problem"), [
    ("name", 5, "tool name 5 must be 1-64 letters"),
    ("name", "", "tool name '' must be 1-64 letters"),
    ("description", 3, "description must be a string, got 3"),
    ("description", None, None),  # None: the docstring's summary
])
def test_the_name_and_description_are_checked_at_decoration(
        name: str, value: Any, problem: str | None) -> None:
    """Before: ``name=5`` became the name "5", and ``name=""`` silently the function's."""
    if problem is None:
        assert th.tool(**{name: value})(_lookup).description == "Look up a city."
        return
    with pytest.raises(th.UsageError, match=f"^{problem}"):
        th.tool(**{name: value})(_lookup)


def test_localns_must_be_a_mapping() -> None:
    with pytest.raises(th.UsageError, match=r"^localns must be a mapping of names, got 5$"):
        th.Tool(_lookup, localns=5)  # type: ignore[arg-type]


def test_strict_set_later_checks_the_signature_as_the_constructor_does() -> None:
    def tag(labels: dict[str, str]) -> str:
        """Tag with free-form labels."""
        return "tagged"

    tool = th.tool(tag)
    with pytest.raises(th.UsageError, match=r"^tag cannot be strict: 'labels' is a mapping"):
        th.tool(strict=True)(tag)
    with pytest.raises(th.UsageError, match=r"^tag cannot be strict: 'labels' is a mapping"):
        tool.strict = True
    assert tool.strict is None
    tool.strict = False
    assert tool.schema("anthropic")["name"] == "tag"


def test_input_examples_set_later_are_checked_against_the_signature() -> None:
    tool = th.tool(_lookup)
    with pytest.raises(th.UsageError, match=r"^input example 1 of _lookup does not match"):
        th.tool(input_examples=[{"town": "Paris"}])(_lookup)
    with pytest.raises(th.UsageError, match=r"^input example 1 of _lookup does not match"):
        tool.input_examples = [{"town": "Paris"}]
    assert tool.input_examples is None
    tool.input_examples = [{"city": "Paris"}]
    assert tool.schema("anthropic")["input_examples"] == [{"city": "Paris"}]


def test_a_setting_set_on_a_bound_method_tool_is_checked_too() -> None:
    weather = _Method()
    bound = weather.lookup
    with pytest.raises(th.UsageError, match=r"^retries must"):
        bound.retries = -1
    bound.retries = 0
    assert bound.retries == 0
    _runs_true(bound)


@pytest.mark.parametrize("name", ["max_failures", "max_wait", "tools", "id", "store"])
def test_no_setting_of_a_session_can_be_deleted_either(name: str) -> None:
    session = th.Session([th.tool(_lookup)])
    refused = raised(lambda: delattr(session, name))
    assert isinstance(refused, th.UsageError) and "cannot be deleted" in str(refused)
    assert session.call("_lookup", {"city": "Paris"}).content == "sunny in Paris"


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=True),
    st.text(max_size=80), st.lists(st.dictionaries(st.text(max_size=5), st.integers()),
                                   max_size=2),
    st.dictionaries(st.sampled_from(["type", "ttl", "x"]),
                    st.sampled_from(["ephemeral", "5m", "1h", "2h"])),
    st.sampled_from([(), [th.Rule(KeyError, th.Category.NOT_FOUND)], "x"]),
)


def _accepted(attempt: Callable[[], Any]) -> bool:
    try:
        attempt()
    except th.UsageError as exc:
        assert "\n" not in str(exc)
        return False
    return True


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from([n for n in SETTINGS if n != "name"]), VALUES)
@example("input_examples", [{"\n": 0}])  # an argument's name with a line break: one line
def test_a_value_is_kept_when_set_exactly_when_the_constructor_takes_it(
        name: str, value: Any) -> None:
    """One table: any value of any setting is accepted after construction exactly when
    the constructor accepts it, and a refusal is one line that leaves the setting as it
    was; anything else raised is a bug."""
    if name == "description" and value is None:
        return  # at construction None stands for the default (the docstring's summary)
    at_construction = _accepted(lambda: th.Tool(_lookup, **{name: value}))
    tool = th.tool(_lookup)
    before = getattr(tool, name)
    later = _accepted(lambda: setattr(tool, name, value))
    assert later == at_construction
    if later:
        assert getattr(tool, name) == getattr(th.Tool(_lookup, **{name: value}), name)
    else:
        assert getattr(tool, name) == before


NAME_CHARS = string.ascii_lowercase + "_"


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from([*SETTINGS, "fn", "is_async"]), st.data())
def test_a_near_miss_of_any_setting_is_refused_and_nothing_is_kept(
        name: str, data: st.DataObject) -> None:
    """A setting's name with one letter dropped, doubled or changed (past the first, as
    typing slips) is refused naming a setting, unless it is a setting itself."""
    at = data.draw(st.integers(1, len(name) - 1), label="at")
    slip = data.draw(st.sampled_from(["drop", "double", "change"]), label="slip")
    letter = data.draw(st.sampled_from(NAME_CHARS), label="letter")
    typo = {"drop": name[:at] + name[at + 1:], "double": name[:at] + name[at] + name[at:],
            "change": name[:at] + letter + name[at + 1:]}[slip]
    tool = th.tool(_lookup)
    if typo in {*SETTINGS, "fn", "is_async"} or len(typo) < 4:
        return  # a setting itself, or too short to be told from another word
    refused = raised(lambda: setattr(tool, typo, 1))
    assert isinstance(refused, th.UsageError), typo
    assert str(refused).startswith(f"{typo} is not a tool setting: did you mean ")
    assert typo not in vars(tool)


def test_an_mcp_tools_own_parts_cannot_be_deleted() -> None:
    """Its client and server-side name are what every call uses: deleting one would
    have the next call tell the model "'McpTool' object has no attribute 'client'"."""
    types = pytest.importorskip("mcp.types")
    from toolhygiene.mcp import McpTool

    definition = types.Tool(name="lookup", description="Look up.",
                            inputSchema={"type": "object", "properties": {}})
    tool = McpTool(object(), definition, retries=1)
    for part in ("client", "mcp_name", "input_schema", "retries"):
        with pytest.raises(th.UsageError, match=f"^{part} is (a tool setting|part of the tool)"):
            delattr(tool, part)
    with pytest.raises(th.UsageError, match=r"^retires is not a tool setting"):
        tool.retires = 3


@pytest.mark.parametrize(("name", "says"), [
    ("session_id", "session_id is not a Session setting: session.reset(session_id=...) starts"),
    ("retries", "retries is not a Session setting: set it on the tool (@th.tool(retries=...))"),
    ("timeout", "timeout is not a Session setting: set it on the tool (@th.tool(timeout=...))"),
    ("retry", "retries is not a Session setting: set it on the tool (@th.tool(retries=...))"),
    ("tool_timeout", "timeout is not a Session setting: set it on the tool (@th.tool(timeout="),
    ("Max_failures", "Max_failures is not a Session setting: did you mean max_failures?"),
    ("clearing_mode", "clearing_mode is not a Session setting: did you mean clearing?"),
    ("tools", "tools cannot change once the Session is made"),
])
def test_a_session_refuses_what_would_do_nothing_there(name: str, says: str) -> None:
    """cold-11 #5: each of these was kept silently (``session_id`` left ``id`` as it
    was; ``tools = []`` broke the next call with a raw AttributeError)."""
    session = th.Session([th.tool(_lookup)], session_id="conv-1")
    refused = raised(lambda: setattr(session, name, 3))
    assert isinstance(refused, th.UsageError) and str(refused).startswith(says)
    assert session.id == "conv-1" and (name == "tools" or name not in vars(session))
    assert session.call("_lookup", {"city": "Paris"}).content == "sunny in Paris"


def test_what_cannot_be_a_tool_is_a_usage_error_at_decoration() -> None:
    """cold-11 #17: ``th.tool(int)`` raised a raw ValueError; a lambda's name did not
    say how to give one."""
    with pytest.raises(th.UsageError, match=r"^cannot build the argument schema of int: "):
        th.tool(int)
    with pytest.raises(th.UsageError, match=r"give one with @th\.tool\(name=\.\.\.\)$"):
        th.tool(lambda city: city)
    assert th.tool(name="echo")(lambda city: city).name == "echo"


def test_annotations_that_never_resolve_are_refused_by_the_session() -> None:
    """cold-11 #6: the call told the model "cannot resolve the annotations of bad", the
    developer's mistake read as the tool's failure."""
    def bad(city: Undefined) -> str:  # type: ignore[name-defined]  # noqa: F821
        """Never defined."""
        return "x"

    tool = th.tool(bad)
    with pytest.raises(th.UsageError, match=r"^cannot resolve the annotations of bad: "):
        th.Session([tool])


@pytest.mark.parametrize(("arguments", "problem"), [
    ({"retryable": "no"}, "ToolError's retryable must be True or False, got 'no'"),
    ({"retryable": False, "alternatives": "abc"}, "ToolError's alternatives must be a list of strings"),
    ({"retryable": False, "alternatives": ["a", 1]}, "ToolError's alternatives must be a list of strings"),
    ({"retryable": True, "retry_after": -1}, "ToolError's retry_after must be a finite number of seconds >= 0"),
    ({"retryable": True, "retry_after": float("nan")}, "ToolError's retry_after must be a finite number of seconds >= 0"),
    ({"retryable": True, "retry_after": "5"}, "ToolError's retry_after must be a finite number of seconds >= 0"),
    ({"retryable": False, "retry_after": 5}, "ToolError's retry_after is a wait before a retry"),
    ({"retryable": False, "category": "bogus"}, "ToolError's category must be one of connectivity, "),
    ({"retryable": False, "instead": 3}, "ToolError's instead must be a string, got 3"),
])
def test_a_tool_errors_arguments_are_checked_like_settings(
        arguments: dict[str, Any], problem: str) -> None:
    """cold-11 #3: ``retryable="no"`` told the model "Transient: a retry may succeed",
    ``alternatives="abc"`` listed "a; b; c", a negative or NaN wait was dropped silently
    and a bogus category was a raw ValueError."""
    refused = raised(lambda: th.ToolError("the order service is down", **arguments))
    assert isinstance(refused, th.UsageError) and str(refused).startswith(problem)
    assert "\n" not in str(refused)


def test_a_tool_errors_right_arguments_still_make_their_line() -> None:
    error = th.ToolError("quota used up", retryable=True, retry_after=5,
                         category="rate_limit", alternatives=("use search_cache",))
    assert error.for_model("lookup").startswith(
        "[error] lookup: rate_limit. quota used up. Transient: retry after 5 s.")
