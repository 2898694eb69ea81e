"""@tool: direct calls still work, schemas come from the signature, arguments are checked."""

from __future__ import annotations

import json
import re
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

import toolhygiene as th
from helpers import examples

# Private imports, by design (internal units under test): the words of argument errors, compared as written.
from toolhygiene._words import arguments_not_json, cut_turn_line, read_result


@th.tool
def get_weather(city: str, days: int = 1, unit: Literal["C", "F"] = "C") -> str:
    """Get the weather forecast for a city.

    Args:
        city: the city's name, e.g. "Paris".
        days: how many days ahead,
            from 1 to 7.
        unit: the temperature unit.

    Returns:
        The forecast.
    """
    return f"{city}: {days} day(s) in {unit}"


def test_decorated_function_still_works_directly() -> None:
    assert get_weather("Paris", 2) == "Paris: 2 day(s) in C"
    # Tool copies the function's metadata at run time (functools.update_wrapper); its
    # type does not declare it.
    assert get_weather.__name__ == "get_weather"  # type: ignore[attr-defined]
    assert "forecast" in (get_weather.__doc__ or "")


def test_schema_from_signature_hints_and_docstring() -> None:
    assert get_weather.description == "Get the weather forecast for a city."
    params = get_weather.parameters
    assert params["required"] == ["city"]
    assert params["additionalProperties"] is False
    assert params["properties"]["city"] == {"type": "string",
                                            "description": 'the city\'s name, e.g. "Paris".'}
    assert params["properties"]["days"]["description"] == "how many days ahead, from 1 to 7."
    assert params["properties"]["unit"]["enum"] == ["C", "F"]


def test_sphinx_docstrings() -> None:
    @th.tool
    def find(query: str) -> str:
        """Search the catalogue.

        :param query: words to look for
        """
        return query

    assert find.parameters["properties"]["query"]["description"] == "words to look for"
    assert find.description == "Search the catalogue."


def test_numpy_docstrings() -> None:
    @th.tool
    def convert(amount: float, currency: str) -> str:
        """Convert an amount to euros.

        Parameters
        ----------
        amount : float
            how much, in the given currency
        currency : str
            an ISO 4217 code
        """
        return "ok"

    props = convert.parameters["properties"]
    assert props["amount"]["description"] == "how much, in the given currency"
    assert props["currency"]["description"] == "an ISO 4217 code"
    assert convert.description == "Convert an amount to euros."


def test_options() -> None:
    @th.tool(name="charge_card", description="Charge a card.", max_failures=1, retries=0,
             timeout=3.0, idempotent=False, instead="ask the user for another card")
    def charge(amount: float) -> str:
        return "ok"

    assert (charge.name, charge.description, charge.max_failures, charge.retries,
            charge.timeout, charge.idempotent) == ("charge_card", "Charge a card.", 1, 0, 3.0,
                                                   False)


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
def test_schema_formats(fmt: str) -> None:
    schema = get_weather.schema(fmt)  # type: ignore[arg-type]
    if fmt == "anthropic":
        assert set(schema) == {"name", "description", "input_schema"}
    elif fmt == "openai_chat":
        assert schema["type"] == "function" and schema["function"]["name"] == "get_weather"
    else:
        assert schema["type"] == "function" and schema["parameters"]["required"] == ["city"]


def test_unknown_format_is_a_usage_error() -> None:
    with pytest.raises(th.UsageError, match="unknown format"):
        get_weather.schema("gemini")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"days": 2}, "missing required argument 'city' (a string)"),
        ({"city": "Paris", "country": "FR"}, "unexpected argument 'country' (allowed: city, days, unit)"),
        ({"city": "Paris", "days": "many"}, "argument 'days' must be a valid integer"),
        ({"city": "Paris", "unit": "K"}, "argument 'unit' must be 'C' or 'F', got \"K\""),
        ('{"city": "Paris", "days": }', "the arguments are not valid JSON: Expecting value at line 1 column 27"),
        ("[1, 2]", "the arguments must be a JSON object, got list"),
    ],
)
def test_bad_arguments_name_the_argument(arguments: object, expected: str) -> None:
    outcome = th.Session([get_weather]).call("get_weather", arguments)  # type: ignore[arg-type]
    assert not outcome.ok and outcome.attempts == 0
    assert outcome.content.startswith("[error] get_weather: bad_request.")
    assert expected in outcome.content
    assert "city: a string, days: a whole number (optional)" in outcome.content


def test_json_string_arguments_are_accepted() -> None:
    outcome = th.Session([get_weather]).call("get_weather", '{"city": "Paris", "days": "3"}')
    assert outcome.ok and outcome.value == "Paris: 3 day(s) in C"


def test_pydantic_model_arguments() -> None:
    class Address(BaseModel):
        street: str
        zip: str

    @th.tool
    def ship(to: Address) -> str:
        return to.zip

    session = th.Session([ship])
    assert session.call("ship", {"to": {"street": "Main", "zip": "75001"}}).value == "75001"
    bad = session.call("ship", {"to": {"street": "Main"}})
    assert "missing required argument 'to.zip'" in bad.content


def test_plain_functions_get_default_settings() -> None:
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    session = th.Session([add])
    assert session.call("add", {"a": 1, "b": 2}).content == "3"
    assert session.schemas("anthropic")[0]["description"] == "Add two numbers."


def test_positional_only_and_var_keyword() -> None:
    def f(a: int, /, **extra: str) -> str:
        return f"{a}{sorted(extra.items())}"

    assert th.Session([f]).call("f", {"a": 1, "x": "y"}).value == "1[('x', 'y')]"


def va(first: str, *rest: int, **kw: str) -> tuple[str, tuple[int, ...], dict[str, str]]:
    """Varargs.

    Args:
        first: the first.
        rest: the rest.
    """
    return first, rest, kw


def test_var_positional_is_an_array_argument_passed_by_position() -> None:
    parameters = th.tool(va).parameters
    assert parameters["properties"]["rest"] == {
        "description": "the rest.", "items": {"type": "integer"}, "type": "array"}
    assert parameters["required"] == ["first"]
    session = th.Session([va])
    assert session.call("va", {"first": "a", "rest": [1, 2]}).value == ("a", (1, 2), {})
    assert session.call("va", {"first": "a", "k": "v"}).value == ("a", (), {"k": "v"})
    refused = session.call("va", {"first": "a", "rest": ["x"]})
    assert not refused.ok and "argument 'rest[0]' must be a valid integer" in refused.content


@settings(max_examples=examples(50), deadline=None)
@given(first=st.text(), rest=st.lists(st.integers()), kw=st.dictionaries(
    st.text(min_size=1).filter(lambda k: k not in ("first", "rest")), st.text(), max_size=3))
def test_var_positional_reaches_the_function_whole(first: str, rest: list[int],
                                                   kw: dict[str, str]) -> None:
    got = th.Session([va]).call("va", {"first": first, "rest": rest, **kw})
    assert got.value == (first, tuple(rest), kw)


def test_only_var_positional_keeps_its_argument_in_strict_mode() -> None:
    class Box:
        @th.tool(strict=True)
        def pack(self, *items: int) -> list[int]:
            """Pack."""
            return list(items)

    strict = th.Session([Box().pack]).schemas("openai_chat")[0]["function"]["parameters"]
    assert strict["required"] == ["items"] and "items" in strict["properties"]
    session = th.Session([Box().pack])
    assert session.call("pack", {"items": [3, 4]}).value == [3, 4]
    assert session.call("pack", {"items": None}).value == []


class Item(BaseModel, extra="forbid"):
    sku: str = Field(min_length=3)
    qty: float = 1


class Address(BaseModel, extra="forbid"):
    street: str
    zip: str


class Order(BaseModel, extra="forbid"):
    items: list[Item]
    ship_to: Address | None = None


def place(order: Order, note: str = "") -> str:
    """Place an order."""
    return note


@pytest.mark.parametrize(("arguments", "said"), [
    ({"order": {"items": [], "x": 1}}, "unexpected argument 'order.x' (allowed: items, ship_to)"),
    ({"order": {"items": [{"sku": "ABC", "colour": "red"}]}},
     "unexpected argument 'order.items[0].colour' (allowed: sku, qty)"),
    ({"order": {"items": [], "ship_to": {"street": "s", "zip": "z", "city": "c"}}},
     "unexpected argument 'order.ship_to.city' (allowed: street, zip)"),
    ({"order": {"items": []}, "extra": 1}, "unexpected argument 'extra' (allowed: order, note)"),
    ({"order": {"items": [{"sku": "ABC"}, {"sku": "AB"}]}},
     "argument 'order.items[1].sku' string should have at least 3 characters"),
    ({"order": {"items": [{"qty": 2}]}},
     "missing required argument 'order.items[0].sku' (a string of at least 3 characters)"),
    ({"order": {"items": [], "ship_to": {"street": "s"}}},
     "missing required argument 'order.ship_to.zip' (a string)"),
    ({"order": {"items": [{"sku": "ABC", "qty": float("nan")}]}},
     "argument 'order.items[0].qty' must be a finite number"),
])
def test_nested_errors_name_one_path_style_and_the_keys_of_their_level(
        arguments: dict[str, object], said: str) -> None:
    outcome = th.Session([place]).call("place", arguments)
    assert not outcome.ok and said in outcome.content


def test_unknown_tool_is_answered_with_the_names_that_exist() -> None:
    outcome = th.Session([get_weather]).call("get_wether", {"city": "Paris"})
    assert outcome.content.startswith("[error] get_wether: bad_request. there is no tool named 'get_wether'.")
    assert "Call one of the tools that exist: get_weather." in outcome.content


def valid_name() -> None:
    """A function whose name is a valid tool name: only the setting under test is wrong."""


@pytest.mark.parametrize(("bad", "problem"), [
    ({"max_failures": 0}, "max_failures must be a whole number of at least 1, got 0"),
    ({"max_failures": -3}, "max_failures must be a whole number of at least 1, got -3"),
    ({"retries": -1}, "retries must be a whole number of at least 0, got -1"),
    ({"timeout": 0}, "timeout must be a finite number of seconds > 0, got 0"),
    ({"timeout": -1.5}, "timeout must be a finite number of seconds > 0, got -1.5"),
    ({"name": "has space"}, "tool name 'has space' must be 1-64 letters"),
])
def test_bad_settings_are_usage_errors(bad: dict[str, object], problem: str) -> None:
    with pytest.raises(th.UsageError, match=re.escape(problem)):
        th.tool(**bad)(valid_name)  # type: ignore[call-overload]


def test_good_settings_at_their_bounds_are_accepted() -> None:
    tool = th.tool(max_failures=1, retries=0, timeout=0.001)(valid_name)
    assert (tool.max_failures, tool.retries, tool.timeout) == (1, 0, 0.001)


def test_duplicate_names_are_a_usage_error() -> None:
    with pytest.raises(th.UsageError, match="two tools are named 'get_weather'"):
        th.Session([get_weather, get_weather])



@th.tool
def echo(x: str) -> str:
    """Say it back.

    Args:
        x: the text.
    """
    return x


def _json_line(text: str) -> str:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    return arguments_not_json(caught.value.msg, caught.value.lineno, caught.value.colno)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ('{"x": "Par', "Unterminated string starting at line 1 column 7"),
        ('{"x": "P\x01"}', "Invalid control character at line 1 column 9"),
        ('{"x": "\\q"}', "Invalid \\escape"),
        ('{"x": "\\u12"}', "Invalid \\uXXXX escape at line 1 column"),
        ('{"x" "P"}', "Expecting ':' delimiter at line 1 column 6"),
        ('{"x": "P" "y"}', "Expecting ',' delimiter at line 1 column 11"),
        ("{x: 1}", "Expecting property name enclosed in double quotes at line 1 column 2"),
        ('{"x": "P"} y', "Extra data at line 1 column 12"),
        ("nope", "Expecting value at line 1 column 1"),
    ],
)
def test_every_json_error_reads_as_one_sentence(arguments: str, expected: str) -> None:
    """json's messages that end in "at" are followed by the place once ("at line", never
    "at at line"), in the words and in the line the model reads."""
    assert _json_line(arguments).startswith(f"the arguments are not valid JSON: {expected}")
    outcome = th.Session([echo]).call("echo", arguments)
    assert f"the arguments are not valid JSON: {expected}" in outcome.content
    assert " at at " not in outcome.content


@settings(max_examples=examples(60))
@given(st.text(max_size=30))
def test_json_errors_name_the_place_once(text: str) -> None:
    """Whatever JSON text fails, the words give json's place once, after its message."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        said = arguments_not_json(exc.msg, exc.lineno, exc.colno)
        assert said.endswith(f" at line {exc.lineno} column {exc.colno}")
        assert " at at " not in said and said.count(" at line ") == 1


def test_a_cut_turns_answer_reads_back_as_not_counted() -> None:
    """The answer to a call of a cut turn, read back (``Session.resume``), counts nothing."""
    read = read_result(cut_turn_line("echo"), is_error=True)
    assert read.kind == "held" and read.category == "cut_off"
