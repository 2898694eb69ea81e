"""Every kind of signature: the schema each API gets (checked against the APIs' published
rules, strict and not), the value the function receives, descriptions and constraints
kept, and the arguments a strict model sends read back as the defaults they stand for."""

from __future__ import annotations

import copy
import functools
import typing
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolhygiene as th
from api_rules import check_definition, parts, validates
from signatures import CASES, DESCRIPTIONS, STORE, Store, received

FORMATS = ["anthropic", "openai_chat", "openai_responses"]


@pytest.fixture(autouse=True)
def _clear_received() -> None:
    received.clear()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("kind", sorted(CASES))
def test_definition_obeys_the_api_rules(kind: str, strict: bool, fmt: str) -> None:
    case = CASES[kind]
    definition = th.Session([case.tool]).schemas(fmt, strict=strict)[0]  # type: ignore[arg-type]
    check_definition(definition, fmt)
    _name, schema, is_strict = parts(definition, fmt)
    assert is_strict is strict
    assert "self" not in schema["properties"] and "cls" not in schema["properties"]
    args = case.strict_args if strict else case.loose_args
    assert validates(schema, args), (schema, args)


@pytest.mark.parametrize("kind", sorted(CASES))
@pytest.mark.parametrize("shape", ["strict", "loose"])
def test_function_receives_the_values(kind: str, shape: str) -> None:
    case = CASES[kind]
    args = case.strict_args if shape == "strict" else case.loose_args
    outcome = th.Session([case.tool]).call(case.tool.name, copy.deepcopy(args))
    assert outcome.ok, outcome.content
    assert received == [case.expected]


@pytest.mark.parametrize("kind", sorted(CASES))
def test_descriptions_are_kept(kind: str) -> None:
    properties = CASES[kind].tool.parameters["properties"]
    for name, text in DESCRIPTIONS[kind].items():
        assert properties[name]["description"] == text


def test_annotated_field_keeps_description_and_constraints() -> None:
    seats = CASES["annotated"].tool.parameters["properties"]["seats"]
    assert seats == {"type": "integer", "description": "seats to book", "exclusiveMinimum": 0,
                     "maximum": 9}
    outcome = th.Session([CASES["annotated"].tool]).call("book", {"seats": 0, "name": "A"})
    assert "argument 'seats' must be greater than 0, got 0" in outcome.content


def test_field_as_default_stays_required_and_is_never_a_fieldinfo() -> None:
    tool = CASES["annotated"].tool
    assert tool.parameters["required"] == ["seats", "name"]
    missing = th.Session([tool]).call("book", {"seats": 1})
    assert "missing required argument 'name' (a string)" in missing.content
    assert received == []


def test_summaries_come_from_the_right_docstring() -> None:
    assert CASES["partial"].tool.description == "Search the catalogue."
    assert CASES["partial"].tool.name == "_search"
    assert CASES["callable"].tool.description == "Translate text."
    assert CASES["method"].tool.description == "Look up a product."


def test_partial_hides_bound_arguments_and_refuses_overriding_them() -> None:
    tool = CASES["partial"].tool
    assert set(tool.parameters["properties"]) == {"query", "page"}
    outcome = th.Session([tool]).call("_search", {"query": "tea", "region": "us"})
    assert "unexpected argument 'region' (allowed: query, page)" in outcome.content
    assert received == []


def test_method_called_on_an_instance_works_directly() -> None:
    assert STORE.lookup("B2") == "S-B2"
    assert Store.price("B2") == 9.5
    assert Store.stores("Nice") == ["Nice"]
    assert Store("X-").stores("Nice") == ["Nice"]
    assert Store.lookup(STORE, "C3") == "S-C3"


def test_method_from_the_class_is_refused_with_the_fix() -> None:
    with pytest.raises(th.UsageError, match=r"give the Session the method of an instance"):
        th.Session([Store.lookup])


def test_partial_of_an_unbound_method_is_a_usage_error() -> None:
    with pytest.raises(th.UsageError, match="bind the method first"):
        th.tool(functools.partial(Store.lookup, sku="x"))


def test_forward_reference_unresolvable_at_first_use_is_a_usage_error() -> None:
    @th.tool
    def ghost(x: Nowhere) -> None:  # type: ignore[name-defined]  # noqa: F821
        """Never defined."""

    with pytest.raises(th.UsageError, match=r"cannot resolve the annotations of ghost: .*Nowhere"):
        ghost.schema("anthropic")


class Inner(typing.TypedDict):
    """A line."""

    sku: str


class Order(typing.TypedDict, total=False):
    """An order."""

    lines: list[Inner]
    note: str


def test_typing_typeddict_works_on_every_python() -> None:
    """pydantic refuses ``typing.TypedDict`` before 3.12; the tool rebuilds it. (Module
    level: pydantic on 3.12+ resolves a TypedDict's own annotations in its module.)"""

    def place(order: Order, extra: Inner | None = None) -> str:
        """Place an order."""
        received.append({"order": order, "extra": extra})
        return "placed"

    tool = th.tool(place)
    schema = tool.parameters
    assert "required" not in schema["$defs"]["Order"]
    assert schema["$defs"]["Inner"]["required"] == ["sku"]
    assert schema["$defs"]["Order"]["description"] == "An order."
    check_definition(tool.schema("openai_chat", strict=True), "openai_chat")
    outcome = th.Session([tool]).call(
        "place", {"order": {"lines": [{"sku": "A"}], "note": None}, "extra": None})
    assert outcome.ok, outcome.content
    assert received == [{"order": {"lines": [{"sku": "A"}]}, "extra": None}]
    assert type(received[0]["order"]) is dict


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_for_float_arguments(bad: str) -> None:
    outcome = th.Session([CASES["numpy"].tool]).call("numpy", f'{{"amount": {bad}}}')
    assert not outcome.ok and outcome.attempts == 0
    assert "argument 'amount' must be a finite number" in outcome.content
    nested = th.Session([CASES["forward_ref"].tool]).call(
        "later", {"item": {"weight": float(bad.lower().replace("infinity", "inf"))}})
    assert "argument 'item.weight' must be a finite number" in nested.content
    assert received == []


@given(st.dictionaries(st.sampled_from(["days", "unit"]),
                       st.one_of(st.none(), st.sampled_from([1, 2, 7])), max_size=2))
def test_null_for_an_optional_argument_means_its_default(optional: dict[str, Any]) -> None:
    received.clear()
    args = {"city": "Oslo", **{k: (v if k == "days" or v is None else "F")
                              for k, v in optional.items()}}
    assert th.Session([CASES["google"].tool]).call("google", args).ok
    got = received[0]
    for key, default in (("days", 1), ("unit", "C")):
        value = args.get(key)
        assert got[key] == (default if value is None else value)


def test_null_stays_null_where_the_type_accepts_it() -> None:
    assert th.Session([CASES["annotated"].tool]).call(
        "book", {"seats": 1, "name": "A", "note": None}).ok
    assert received[0]["note"] is None


def test_null_for_a_required_argument_is_still_an_error() -> None:
    outcome = th.Session([CASES["google"].tool]).call("google", {"city": None})
    assert "argument 'city' must be a valid string, got null" in outcome.content


async def test_async_methods_and_async_callables_are_awaited() -> None:
    class Inbox:
        def __init__(self) -> None:
            self.seen: list[str] = []

        @th.tool
        async def read(self, folder: str) -> list[str]:
            """Read a folder.

            Args:
                folder: which folder.
            """
            self.seen.append(folder)
            return [folder]

    class Ping:
        """Ping a host."""

        async def __call__(self, host: str) -> str:
            return host

    inbox = Inbox()
    session = th.Session([inbox.read, th.tool(Ping(), name="ping")])
    assert session.tools["read"].is_async and session.tools["ping"].is_async
    assert session.tools["read"].parameters["properties"] == {
        "folder": {"type": "string", "description": "which folder."}}
    assert (await session.acall("read", {"folder": "in"})).content == '["in"]'
    assert (await session.acall("ping", {"host": "h"})).content == "h"
    assert inbox.seen == ["in"]
