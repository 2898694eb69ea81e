"""Arguments sent as JSON text (OpenAI) are validated in one pass: the function receives
exactly what it receives for the same arguments sent as a dict (Anthropic), and a refusal
is the same line, whatever the JSON holds."""

from __future__ import annotations

import datetime
import enum
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples


class Size(enum.Enum):
    SMALL = "small"
    LARGE = "large"


@th.tool(retries=0)
def book(city: str, nights: int = 1, price: float = 0.0, size: Size = Size.SMALL,
         when: datetime.date | None = None, tags: list[str] | None = None,
         extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Book a room."""
    return {"city": city, "nights": nights, "price": price, "size": size.value,
            "when": when.isoformat() if when else None, "tags": tags, "extra": extra}


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from(["small", "large", "2024-02-29", "2024-13-01", "3", "1e3"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=6)
KEYS = st.sampled_from(["city", "nights", "price", "size", "when", "tags", "extra", "other"])


def outcome(arguments: Any) -> tuple[bool, str, Any]:
    done = th.Session([book]).call("book", arguments)
    return done.ok, done.content, done.value


@given(st.dictionaries(KEYS, VALUES, max_size=5))
@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
def test_json_text_and_dict_give_the_same_outcome(arguments: dict[str, Any]) -> None:
    assert outcome(json.dumps(arguments)) == outcome(arguments)


def test_json_text_with_a_non_finite_number_is_refused_where_it_is() -> None:
    for where in ('"price": {}', '"extra": {{"a": [{}]}}'):
        for literal in ("NaN", "Infinity", "-Infinity"):
            text = '{"city": "Oslo", ' + where.format(literal) + "}"
            ok, content, _ = outcome(text)
            assert not ok and ("price" in content or "extra.a[0]" in content), content


def test_a_null_for_a_default_in_json_text_takes_the_default() -> None:
    assert outcome('{"city": "Oslo", "nights": null}')[2]["nights"] == 1
