"""The success path's shortcuts change no answer: the known values of a call's arguments
are the same when plain arguments are passed over without a walk, a plain dict result is
recognised as a payload (or not) exactly as any other mapping is, and a successful call
with nothing pending recovers nothing and counts one success."""

from __future__ import annotations

import types
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

# Private imports, by design (internal units under test): each success shortcut is compared with the full path.
from toolhygiene import _known
from toolhygiene._payload import recognise


class _Name(str):
    """A str subclass as a key: never taken for a plain name."""


NAMES = ["city", "order_id", "total", "password", "api_key", "token", "key", "note", "owner"]
names = st.sampled_from(NAMES) | st.builds(_Name, st.sampled_from(["city", "password"]))
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["Hunter-2024-x", "s3cr3t-value", "/home/bob"]),
    st.binary(max_size=8),
)
arguments = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=4),
    max_leaves=8,
)
secrets = st.sampled_from(["Hunter-2024-x", "s3cr3t-value"])
nested = st.dictionaries(names, secrets, min_size=1, max_size=3)  # a secret one level down
mappings = st.dictionaries(names, arguments | nested | secrets, max_size=5)


def _walked(*values: Any) -> tuple[str, ...]:
    """``of_arguments`` with every mapping walked (no plain-arguments shortcut)."""
    found: list[str] = []
    for value in values:
        if isinstance(value, (dict, types.MappingProxyType)):
            _known._collect_items(value, False, found, 0)
    return tuple(dict.fromkeys(found))


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.too_slow])
@given(mappings, mappings)
def test_known_values_are_the_same_without_the_walk(
    sent: dict[str, Any], values: dict[str, Any]
) -> None:
    _known.of_arguments(dict.fromkeys(NAMES, 1))  # every plain name learnt first
    for _ in range(2):  # the second time, the names the first walk learnt are known
        assert _known.of_arguments(sent, values) == _walked(sent, values)
        assert _known.of_arguments("not a mapping", values) == _walked(values)


def test_plain_arguments_are_not_walked_and_secret_ones_are() -> None:
    plain = {"city": "Paris", "days": 3, "gift": False}
    assert _known.of_arguments(plain) == ()
    assert _known._plain(plain)  # learnt: the next call with these names is not walked
    assert _known.of_arguments({**plain, "password": "Hunter-2024-x"}) == ("Hunter-2024-x",)
    assert not _known._plain({"city": {"password": "Hunter-2024-x"}})  # a value to walk
    assert not _known._plain({_Name("city"): "Paris"})


payloads = st.fixed_dictionaries(
    {"isError": st.sampled_from([True, False, 1])},
    optional={
        "isRetryable": st.booleans(),
        "errorCategory": st.sampled_from(["transient", "validation", "timeout", "nonsense"]),
        "message": st.text(max_size=8),
        "extra": st.integers(),
    },
)


@given(payloads | st.dictionaries(st.text(max_size=8), st.integers(), max_size=3))
def test_a_dict_result_is_recognised_as_any_mapping_is(value: dict[str, Any]) -> None:
    as_dict, as_mapping = recognise(value), recognise(types.MappingProxyType(value))
    assert (as_dict is None) == (as_mapping is None)
    if as_dict is not None:
        assert as_dict == dict(as_mapping or {})


@pytest.mark.parametrize("pending", [False, True])
def test_a_success_recovers_only_what_is_pending(pending: bool) -> None:
    state = {"fail": pending}

    @th.tool
    def lookup(city: str) -> str:
        """Look a city up."""
        if state["fail"]:
            raise ValueError("the lookup service refused the request")
        return city

    session = th.Session([lookup])
    if pending:
        assert not session.call("lookup", {"city": "Paris"}).ok
        state["fail"] = False
    outcome = session.call("lookup", {"city": "Paris"})
    assert outcome.ok and outcome.content == "Paris"
    stats = session.stats()
    assert stats["successes"] == 1
    assert stats["pending"] == 0
    assert len(stats["tails"]) == (1 if pending else 0)
