"""Results as JSON: one serialiser for every format; what has no faithful JSON form is a
failure with a true line, never a crash and never a ``repr``."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import json
import math
import uuid
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel
from typing_extensions import TypedDict

import toolhygiene as th
from toolhygiene.formats import adapter
from toolhygiene.testing import model_turn


class Status(enum.Enum):
    OPEN = "open"


class Ticket(BaseModel):
    id: str
    status: Status
    opened: datetime.datetime


@dataclasses.dataclass
class Order:
    id: str
    total: decimal.Decimal
    tags: frozenset[str]


class Row(TypedDict):
    name: str
    when: datetime.date


def returning(value: Any) -> th.Tool[Any, Any]:
    @th.tool
    def give() -> Any:
        """Return the value under test."""
        return value

    return give


def content(value: Any) -> str:
    outcome = th.Session([returning(value)]).call("give", {})
    assert outcome.ok, outcome.content
    return outcome.content


@pytest.mark.parametrize(("value", "expected"), [
    (Ticket(id="T-1", status=Status.OPEN, opened=datetime.datetime(2024, 5, 1, 9, 30)),
     {"id": "T-1", "status": "open", "opened": "2024-05-01T09:30:00"}),
    (Order("O-1", decimal.Decimal("12.50"), frozenset({"b", "a"})),
     {"id": "O-1", "total": "12.50", "tags": ["a", "b"]}),
    (Row(name="x", when=datetime.date(2024, 1, 2)), {"name": "x", "when": "2024-01-02"}),
    ({Status.OPEN: {3, 1, 2}}, {"open": [1, 2, 3]}),
    ({"id": uuid.UUID(int=1)}, {"id": "00000000-0000-0000-0000-000000000001"}),
    ([datetime.time(8, 0), datetime.timedelta(hours=1)], ["08:00:00", "PT1H"]),
    (b"\xff\x00hi", "/wBoaQ=="),
    ((1, 2.5, None, True), [1, 2.5, None, True]),
])
def test_values_become_json(value: Any, expected: Any) -> None:
    assert json.loads(content(value)) == expected


def test_text_stays_text_and_empty_is_explained() -> None:
    assert content("21C, clear") == "21C, clear"
    assert content(th.Empty("orders of ACME")).startswith("[empty] give: nothing matched orders")


def test_sets_are_sorted_so_the_text_is_stable() -> None:
    assert content({"z", "a", "m"}) == '["a", "m", "z"]'


@pytest.mark.parametrize(("value", "where"), [
    (float("nan"), "the result holds NaN, which JSON cannot carry"),
    ({"price": [1.0, float("inf")]}, "the result holds infinity at price[1]"),
    (object(), "the result holds a value of type object, which has no JSON form"),
    ({(1, 2): "x"}, "the result has a tuple key, which JSON cannot carry"),
])
def test_what_json_cannot_carry_is_a_true_failure(value: Any, where: str) -> None:
    outcome = th.Session([returning(value)]).call("give", {})
    assert not outcome.ok and outcome.attempts == 1
    assert outcome.content.startswith("[error] give: unknown. give ran, but ")
    assert where in outcome.content
    assert "Tell the user that give returned a result that cannot be shown." in outcome.content


def test_a_value_that_contains_itself_is_a_failure() -> None:
    loop: list[Any] = []
    loop.append(loop)
    outcome = th.Session([returning(loop)]).call("give", {})
    assert "the result refers to itself at [0]" in outcome.content


def test_objects_with_their_own_text_use_it() -> None:
    class Money:
        def __str__(self) -> str:
            return "12.50 EUR"

    assert json.loads(content({"price": Money()})) == {"price": "12.50 EUR"}


def test_pydantic_serialisers_are_honoured() -> None:
    from pydantic import field_serializer

    class Masked(BaseModel):
        card: str

        @field_serializer("card")
        def _mask(self, card: str) -> str:
            return "****" + card[-4:]

    assert json.loads(content(Masked(card="4111111111111111"))) == {"card": "****1111"}


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSONISH)
def test_json_values_round_trip(value: Any) -> None:
    """A JSON result stays valid JSON whatever redaction takes out of it, and comes back
    equal when nothing in it reads as a secret (a key named ``Token`` takes its value)."""
    if isinstance(value, str):
        return
    text = content(value)
    decoded = json.loads(text)
    if th.redact(json.dumps(value, ensure_ascii=False)) == json.dumps(value, ensure_ascii=False):
        assert decoded == json.loads(json.dumps(value))


C1_TEXT = st.text(st.sampled_from("ab:{}[],\"\x1b\x80\x90\x9b\x9c\x9d\x9e\x9f"), max_size=8)


@given(st.recursive(st.none() | C1_TEXT,
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(C1_TEXT, inner, max_size=3), max_leaves=8))
def test_c1_controls_in_a_json_result_stay_data(value: Any) -> None:
    """Raw C1 string terminators and introducers (OSC U+009D ... ST U+009C) inside a
    result's strings never read as a terminal sequence cutting across the JSON: the text
    is valid JSON whatever strings the result holds (a sequence inside one string is
    taken out of that string), and the same data when no string holds an introducer."""
    if isinstance(value, str):
        return
    decoded = json.loads(content(value))
    introducers = ("\\u001b", "\\u0090", "\\u0098", "\\u009b", "\\u009d", "\\u009e",
                   "\\u009f")
    if not any(c in json.dumps(value) for c in introducers):
        assert decoded == value


def test_osc_and_st_in_two_keys_do_not_cut_the_json_between_them() -> None:
    value = {"": {"\x9d": None}, "\x9c": None}  # found by hypothesis: '{"": {"": null}'
    assert json.loads(content(value)) == value


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=5),
       st.sampled_from([math.nan, math.inf, -math.inf]), st.integers(min_value=0))
def test_non_finite_floats_are_refused_where_they_are(finite: list[float], bad: float,
                                                      at: int) -> None:
    at %= len(finite) + 1
    values = [*finite[:at], bad, *finite[at:]]
    outcome = th.Session([returning({"x": values})]).call("give", {})
    assert not outcome.ok and f"at x[{at}], which JSON cannot carry" in outcome.content


@given(st.lists(st.decimals(allow_nan=False, allow_infinity=False), max_size=5),
       st.sampled_from(["NaN", "sNaN", "-NaN", "Infinity", "-Infinity"]), st.integers(min_value=0))
def test_non_finite_decimals_are_refused_like_floats(finite: list[decimal.Decimal], bad: str,
                                                     at: int) -> None:
    at %= len(finite) + 1
    values = [*finite[:at], decimal.Decimal(bad), *finite[at:]]
    outcome = th.Session([returning({"x": values})]).call("give", {})
    shown = "NaN" if "NaN" in bad else "infinity"
    assert not outcome.ok
    assert f"the result holds {shown} at x[{at}], which JSON cannot carry" in outcome.content
    assert json.loads(content(finite)) == [str(d) for d in finite]  # finite ones as text


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
def test_the_same_text_in_every_format(fmt: str) -> None:
    value = Ticket(id="T-1", status=Status.OPEN, opened=datetime.datetime(2024, 5, 1))
    session = th.Session([returning(value)])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    session.handle(model_turn(fmt, [("give", {})]), messages, format=fmt)  # type: ignore[arg-type]
    seen = repr(messages[-1])
    expected = content(value)
    assert json.dumps(expected)[1:-1] in seen or expected in seen
    assert adapter(fmt).name == fmt
