"""A successful result's JSON text is written by json's C encoder, made once: the text is
exactly ``json.dumps(value, ensure_ascii=False)``'s (C1 controls escaped) for every value
json writes itself, and what json refuses is walked and refused or converted as before."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from toolhygiene._results import UnserializableError, to_json

_C1 = {chr(code): f"\\u{code:04x}" for code in range(0x80, 0xA0)}

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)
json_data = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _dumps(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    return "".join(_C1.get(char, char) for char in text)


@settings(max_examples=examples(300))
@given(json_data)
def test_the_text_is_json_dumps_and_reads_back_as_the_value(value: Any) -> None:
    text = to_json(value)
    assert text == _dumps(value)
    assert json.loads(text) == value


@settings(max_examples=examples(100))
@given(json_data, st.sampled_from([math.nan, math.inf, -math.inf]))
def test_a_non_finite_number_anywhere_is_refused_with_its_place(value: Any, bad: float) -> None:
    with pytest.raises(UnserializableError) as caught:
        to_json({"data": value, "at": [bad]})
    assert caught.value.problem == "non_finite"
    assert caught.value.path == "at[0]"


def test_a_value_that_refers_to_itself_is_refused_with_its_place() -> None:
    # The shared encoder keeps no markers: the cycle is found by the walk, as before.
    looped: dict[str, Any] = {"rows": []}
    looped["rows"].append(looped)
    with pytest.raises(UnserializableError) as caught:
        to_json(looped)
    assert (caught.value.problem, caught.value.path) == ("refers_to_itself", "rows[0]")


def test_deep_nesting_json_writes_is_written_and_past_the_stack_is_an_error() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(400):
        inner.append([])
        inner = inner[0]
    assert to_json(deep) == "[" * 401 + "]" * 401
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    with pytest.raises(RecursionError):  # result_text tells the model it cannot be shown
        to_json(deep)


def test_what_json_refuses_is_converted_as_before() -> None:
    assert to_json({3, 1, 2}) == "[1, 2, 3]"
    assert to_json({None: 1, 2: (1.5, b"hi")}) == '{"null": 1, "2": [1.5, "hi"]}'
    with pytest.raises(UnserializableError) as caught:
        to_json({"k": {(1, 2): 3}})
    assert (caught.value.problem, caught.value.path) == ("bad_key", "k")


def test_threads_share_the_encoder() -> None:
    from concurrent.futures import ThreadPoolExecutor

    shared = {"rows": [{"n": n, "tags": ["a", "b"]} for n in range(200)]}
    expected = json.dumps(shared)
    with ThreadPoolExecutor(4) as pool:
        texts = list(pool.map(lambda _: to_json(shared), range(40)))
    assert texts == [expected] * 40
