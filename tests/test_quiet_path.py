"""The common path skips only what changes nothing: the surrogate walk of plain data and
the events nobody reads."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

# Private imports, by design (internal units under test): the hook switch and the validity walk of the quiet path.
from toolhygiene import _observe
from toolhygiene._text import _valid_walk, valid_data


class Tagged(str):
    """A str subclass: made an exact str wherever it sits in a dict or a list."""


class Box(dict):  # type: ignore[type-arg]
    """A dict subclass."""


texts = st.text(alphabet=st.characters(codec=None), max_size=8)  # surrogates included
leaves = (texts | texts.map(Tagged) | st.integers() | st.floats(allow_nan=False)
          | st.booleans() | st.none() | st.binary(max_size=4))
data = st.recursive(
    leaves,
    lambda inner: (st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4)
                   | st.dictionaries(texts, inner, max_size=3).map(Box)
                   | st.tuples(inner, inner)),
    max_leaves=20,
)


def same(a: Any, b: Any) -> bool:
    """Equal, of the same types throughout (a Tagged is not a str here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(
            same(x, y) for x, y in zip(a.items(), b.items(), strict=True))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) or a != a


@settings(max_examples=examples(300), deadline=None)
@given(data)
def test_the_fast_check_gives_what_the_walk_gives(value: Any) -> None:
    fast, walked = valid_data(value), _valid_walk(value, 0)
    assert same(fast, walked)
    assert (fast is value) == (walked is value)  # copied exactly when the walk copies


@settings(max_examples=examples(100), deadline=None)
@given(st.recursive(texts | st.integers() | st.none(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(texts, inner, max_size=4), max_leaves=20))
def test_plain_data_comes_out_encodable(value: Any) -> None:
    json.dumps(valid_data(value), ensure_ascii=False).encode()


def test_data_the_check_cannot_write_is_walked() -> None:
    deep: Any = "\ud800"
    for _ in range(3000):  # deeper than marshal writes
        deep = [deep]
    out = valid_data(deep)
    assert out is deep  # deeper than DATA_DEPTH: left as it is, as the walk leaves it
    loop: list[Any] = ["\udc00"]
    loop.append(loop)
    assert valid_data(loop)[0] == "\ufffd"
    assert valid_data({"k": Tagged("x")})["k"].__class__ is str


@pytest.fixture
def stdlib() -> Iterator[None]:
    """The default route, whatever another test did to structlog: the standard library's
    ``toolhygiene`` logger, nothing configured on it."""
    with th.configure(logs=logging.getLogger("toolhygiene")):
        yield


@pytest.mark.usefixtures("stdlib")
def test_events_are_built_only_for_someone(caplog: pytest.LogCaptureFixture,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever other tests in this process did: a tracer provider set for good (the
    # OpenTelemetry output is then live and listens to everything), a level lowered.
    monkeypatch.setattr(_observe, "_telemetry", None)
    caplog.set_level(logging.WARNING, logger="toolhygiene")
    # The quiet default: an INFO event reaches nobody; an unknown failure (WARNING) does.
    assert not _observe.listening("tool.failed", "not_found")
    assert not _observe.listening("error.recovered")
    assert _observe.listening("tool.failed", "unknown")
    with caplog.at_level(logging.INFO, logger="toolhygiene"):
        assert _observe.listening("error.recovered")
    with th.testing.capture():
        assert _observe.listening("error.recovered")
    with th.configure(logs=False):
        assert not _observe.listening("tool.failed", "unknown")


@pytest.mark.usefixtures("stdlib")
def test_the_quiet_default_still_logs_when_the_level_is_lowered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    @th.tool
    def get_order(order_id: str) -> str:
        """Fetch one order."""
        if order_id == "bad":
            raise th.ToolError("no such order", retryable=False, category="not_found")
        return "ok"

    session = th.Session([get_order], max_failures=5)
    session.call("get_order", {"order_id": "bad"}, call_id="q1")
    session.call("get_order", {"order_id": "ok"}, call_id="q2")
    assert not [r for r in caplog.records if r.name == "toolhygiene"]
    with caplog.at_level(logging.INFO, logger="toolhygiene"):
        session.call("get_order", {"order_id": "bad"}, call_id="q3")
        session.call("get_order", {"order_id": "ok"}, call_id="q4")
    logged = [r.toolhygiene for r in caplog.records  # type: ignore[attr-defined]
              if r.name == "toolhygiene"]
    assert [(e["event"], e["call_id"]) for e in logged] == [
        ("tool.failed", "q3"), ("error.recovered", "q3")]
    assert logged[1]["recovered_by"] == "q4"
