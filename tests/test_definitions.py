"""Tool definitions as the installed SDKs type them and as the real SDK clients send
them: strict and not, with the definition fields the APIs accept, round trips through
``ScriptedServer``."""

from __future__ import annotations

import copy
from typing import Any

import anthropic.types
import pydantic
import pytest
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from openai.types.shared_params import FunctionDefinition

import toolhygiene as th
from api_rules import check_definition, parts
from signatures import CASES, received
from test_loop import AsyncClient, Client, sent_messages
from toolhygiene.formats import check
from toolhygiene.testing import ScriptedServer, model_turn

FORMATS = ["anthropic", "openai_chat", "openai_responses"]
SDK_TYPES: dict[str, Any] = {
    "anthropic": anthropic.types.ToolParam,
    "openai_chat": ChatCompletionFunctionToolParam,
    "openai_responses": FunctionToolParam,
}


@pytest.fixture(autouse=True)
def _clear_received() -> None:
    received.clear()


def every_tool() -> th.Session:
    return th.Session([case.tool for case in CASES.values()])


def check_sdk_type(definition: dict[str, Any], fmt: str) -> None:
    """The definition validates as the SDK's own param type, with no key it lacks."""
    kind = SDK_TYPES[fmt]
    pydantic.TypeAdapter(kind).validate_python(definition)
    assert set(definition) <= set(kind.__annotations__), set(definition) - set(kind.__annotations__)
    if fmt == "openai_chat":
        assert set(definition["function"]) <= set(FunctionDefinition.__annotations__)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("strict", [None, False, True])
def test_every_definition_is_the_sdk_param_type(fmt: str, strict: bool | None) -> None:
    for definition in every_tool().schemas(fmt, strict=strict):  # type: ignore[arg-type]
        check_sdk_type(definition, fmt)
        check_definition(definition, fmt)


ENVELOPES: dict[str, Any] = {
    "anthropic": lambda d: d["input_schema"],
    "openai_chat": lambda d: d["function"]["parameters"],
    "openai_responses": lambda d: d["parameters"],
}
"""Where each API's definition carries the arguments' schema."""


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("strict", [None, False, True])
def test_parameters_for_is_the_schema_the_definition_sends(fmt: str, strict: bool | None) -> None:
    """``Tool.parameters_for`` is what the definition carries without its envelope, for
    every signature, strict or not, and for tools that decide strictness themselves."""
    session = th.Session([*every_tool().tools.values(), always_strict, never_strict])
    tools = list(session.tools.values())
    definitions = session.schemas(fmt, strict=strict)  # type: ignore[arg-type]
    assert len(definitions) == len(tools)
    for tool, definition in zip(tools, definitions, strict=True):
        sent = tool.parameters_for(fmt, strict=strict)  # type: ignore[arg-type]
        assert sent == ENVELOPES[fmt](definition)


def test_parameters_for_refuses_an_unknown_format() -> None:
    with pytest.raises(th.UsageError, match="unknown format 'openai'"):
        forecast.parameters_for("openai")  # type: ignore[arg-type]


@th.tool(input_examples=[{"city": "Paris"}, {"city": "Oslo", "days": 3}], defer_loading=True,
         cache_control={"type": "ephemeral"})
def forecast(city: str, days: int = 1) -> str:
    """Forecast for a city."""
    return f"{city} {days}"


@th.tool(strict=True)
def always_strict(city: str, days: int = 1) -> str:
    """Strict whatever the session asks."""
    return city


@th.tool(strict=False)
def never_strict(filters: dict[str, str]) -> str:
    """A mapping with free keys: never strict."""
    return str(filters)


def test_anthropic_takes_the_tool_fields() -> None:
    definition = forecast.schema("anthropic")
    check_sdk_type(definition, "anthropic")
    assert definition["input_examples"] == [{"city": "Paris"}, {"city": "Oslo", "days": 3}]
    assert definition["defer_loading"] is True
    assert definition["cache_control"] == {"type": "ephemeral"}


def test_openai_formats_take_only_the_fields_they_accept() -> None:
    chat = forecast.schema("openai_chat")
    responses = forecast.schema("openai_responses")
    check_sdk_type(chat, "openai_chat")
    check_sdk_type(responses, "openai_responses")
    assert set(chat["function"]) == {"name", "description", "parameters"}
    assert responses["defer_loading"] is True and responses["strict"] is False
    assert "input_examples" not in responses and "cache_control" not in responses


def test_input_examples_must_match_the_signature() -> None:
    with pytest.raises(th.UsageError, match="input example 2 of f does not match its arguments: "
                                            "argument 'days' must be a valid integer"):
        @th.tool(input_examples=[{"city": "Paris"}, {"city": "Oslo", "days": "many"}])
        def f(city: str, days: int = 1) -> None:
            """F."""


@pytest.mark.parametrize(("settings", "said"), [
    ({"cache_control": {"type": "bogus"}},
     "cache_control must be {'type': 'ephemeral'}, with an optional 'ttl' of '5m' or '1h', "
     "got {'type': 'bogus'}"),
    ({"cache_control": {"type": "ephemeral", "ttl": "2h"}}, "cache_control must be"),
    ({"cache_control": {"type": "ephemeral", "scope": "x"}}, "cache_control must be"),
    ({"cache_control": "ephemeral"}, "cache_control must be"),
    ({"defer_loading": "yes"}, "defer_loading must be True or False, got 'yes'"),
    ({"defer_loading": 1}, "defer_loading must be True or False, got 1"),
    ({"input_examples": {"city": "x"}},
     "input_examples must be a list of argument dicts, got {'city': 'x'}"),
    ({"input_examples": ["city=x"]}, "input_examples must be a list of argument dicts"),
    ({"input_examples": "city"}, "input_examples must be a list of argument dicts"),
])
def test_definition_fields_are_checked_when_decorating(settings: dict[str, Any],
                                                       said: str) -> None:
    def f(city: str) -> str:
        """F."""
        return city

    with pytest.raises(th.UsageError) as caught:
        th.tool(**settings)(f)
    assert str(caught.value).startswith(said)


@pytest.mark.parametrize("marker", [{"type": "ephemeral"}, {"type": "ephemeral", "ttl": "5m"},
                                    {"type": "ephemeral", "ttl": "1h"}])
def test_every_cache_control_the_api_takes_is_kept(marker: dict[str, str]) -> None:
    @th.tool(cache_control=marker, defer_loading=False, input_examples=({"city": "x"},))
    def f(city: str) -> str:
        """F."""
        return city

    definition = f.schema("anthropic")
    assert definition["cache_control"] == marker and definition["defer_loading"] is False
    check_sdk_type(definition, "anthropic")
    with pytest.raises(th.UsageError, match="cache_control must be"):
        th.Session([f]).schemas("anthropic", cache_control={"type": "bogus"})


def test_cache_control_on_the_last_definition_when_asked() -> None:
    session = th.Session([always_strict, forecast, never_strict])
    plain = session.schemas("anthropic")
    cached = session.schemas("anthropic", cache_control=True)
    assert [d.get("cache_control") for d in cached] == [None, {"type": "ephemeral"},
                                                         {"type": "ephemeral"}]
    assert "cache_control" not in plain[-1]
    ttl = session.schemas("anthropic", cache_control={"type": "ephemeral", "ttl": "1h"})
    assert ttl[-1]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    for definition in cached + ttl:
        check_sdk_type(definition, "anthropic")
    with pytest.raises(th.UsageError, match="cache_control is an Anthropic field"):
        session.schemas("openai_chat", cache_control=True)


@pytest.mark.parametrize("fmt", FORMATS)
def test_per_tool_strict_wins_over_the_session(fmt: str) -> None:
    session = th.Session([always_strict, never_strict])
    for asked in (None, False, True):
        got = [parts(d, fmt)[2] for d in session.schemas(fmt, strict=asked)]  # type: ignore[arg-type]
        assert got == [True, False]


@pytest.mark.parametrize(("signature", "why"), [
    ("def f(**extra: str) -> None: ...", r"takes \*\*kwargs"),
    ("def f(x: dict[str, int]) -> None: ...", "'x' is a mapping with free keys"),
    ("def f(x) -> None: ...", "'x' accepts any value"),
    ("def f(x: tuple[int, str]) -> None: ...", "'x' is a tuple"),
])
def test_what_strict_cannot_express_is_a_usage_error_at_definition(signature: str,
                                                                   why: str) -> None:
    scope: dict[str, Any] = {}
    exec(signature, scope)
    with pytest.raises(th.UsageError, match=f"f cannot be strict: {why}"):
        th.tool(strict=True)(scope["f"])
    loose = th.tool(scope["f"])
    with pytest.raises(th.UsageError, match=f"f cannot be strict: {why}"):
        th.Session([loose]).schemas("openai_chat", strict=True)
    check_definition(loose.schema("openai_chat"), "openai_chat")


def test_recursive_model_is_strict_for_openai_only() -> None:
    class Node(pydantic.BaseModel):
        name: str
        children: list[Node] = []

    @th.tool
    def tree(root: Node) -> int:
        """Count nodes."""
        return 1

    check_definition(tree.schema("openai_chat", strict=True), "openai_chat")
    with pytest.raises(th.UsageError, match="Node contains itself, which Anthropic's strict"):
        tree.schema("anthropic", strict=True)


def test_unsupported_keywords_move_into_the_description() -> None:
    @th.tool
    def pick(code: str = pydantic.Field(min_length=2, max_length=8, description="a code"),
             n: int = pydantic.Field(3, ge=1, le=5)) -> None:
        """Pick."""

    openai_props = pick.strict_parameters("openai")["properties"]
    assert openai_props["code"] == {
        "type": "string", "description": "a code (at least 2 characters; at most 8 characters)"}
    assert openai_props["n"]["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 5}
    anthropic_props = pick.strict_parameters("anthropic")["properties"]
    assert anthropic_props["n"] == {
        "anyOf": [{"type": "integer"}, {"type": "null"}],
        "description": "at least 1; at most 5 (null for the default, 3)"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("strict", [False, True])
def test_round_trip_through_the_sdk_client(server: ScriptedServer, fmt: str,
                                           strict: bool) -> None:
    session = every_tool()
    tools = session.schemas(fmt, strict=strict)  # type: ignore[arg-type]
    calls = [(case.tool.name, copy.deepcopy(case.strict_args if strict else case.loose_args))
             for case in CASES.values()]
    server.push(body=model_turn(fmt, calls))
    server.push(body=model_turn(fmt, [], text="done"))
    client = Client(fmt, server.url, session)
    client.strict = strict
    messages: list[Any] = [{"role": "user", "content": "go"}]
    response = client.send(messages)
    sent = server.requests[0].body["tools"]
    assert sent == tools
    for definition in sent:
        check_definition(definition, fmt)
    assert session.handle(response, messages)
    check(messages, fmt)
    assert sorted(received, key=repr) == sorted((c.expected for c in CASES.values()), key=repr)
    client.send(messages)
    seen = repr(sent_messages(server, fmt))
    assert "error" not in seen
    assert "booked" in seen and "S-A1" in seen


@pytest.mark.parametrize("fmt", FORMATS)
async def test_async_round_trip_through_the_sdk_client(server: ScriptedServer, fmt: str) -> None:
    session = every_tool()
    calls = [(case.tool.name, copy.deepcopy(case.strict_args)) for case in CASES.values()]
    server.push(body=model_turn(fmt, calls))
    client = AsyncClient(fmt, server.url, session)
    client.strict = True
    messages: list[Any] = [{"role": "user", "content": "go"}]
    response = await client.send(messages)
    assert server.requests[0].body["tools"] == session.schemas(fmt, strict=True)  # type: ignore[arg-type]
    assert await session.ahandle(response, messages)
    check(messages, fmt)
    assert sorted(received, key=repr) == sorted((c.expected for c in CASES.values()), key=repr)
