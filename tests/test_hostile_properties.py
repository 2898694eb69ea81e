"""Open-ended hostile input: arguments and tool names carrying lone surrogates, nested
past the stack, or megabytes long, through call, acall and handle in every format.
Nothing escapes, every text the model reads is valid UTF-8, the list stays valid."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples

# Private imports, by design (internal units under test): the data-depth bound the properties are generated around.
from toolhygiene._text import DATA_DEPTH
from toolhygiene.formats import check

ANY_CHAR = st.characters(exclude_categories=())  # surrogates included
TEXT = st.text(ANY_CHAR, max_size=30)
HUGE = st.sampled_from([70_000, 1_000_000]).map(lambda n: "x\ud800" * (n // 2))


def _deep_value(depth: int, leaf: str) -> tuple[Any, str]:
    """A list nested ``depth`` deep, and its JSON text, both built without recursion."""
    value: Any = leaf
    for _ in range(depth):
        value = [value]
    return value, "[" * depth + json.dumps(leaf) + "]" * depth


DEEP = st.tuples(st.sampled_from([3, 300, 5_000, 100_000]), TEXT).map(lambda t: _deep_value(*t))
JSON_LEAF = st.none() | st.booleans() | st.integers() | TEXT
VALUE = st.one_of(JSON_LEAF.map(lambda v: (v, json.dumps(v))), DEEP,
                  HUGE.map(lambda v: (v, json.dumps(v))))
ARGS = st.dictionaries(st.sampled_from(["city", "nights", "x"]) | TEXT, VALUE, max_size=3)
NAME = st.sampled_from(["book"]) | TEXT


@th.tool
def book(city: str, nights: int = 1) -> str:
    """Book a hotel."""
    city.encode("utf-8")
    return f"booked {city} for {nights}"


def _json_text(args: dict[str, tuple[Any, str]]) -> str:
    return "{" + ",".join(f"{json.dumps(k)}:{text}" for k, (_, text) in args.items()) + "}"


def _valid(text: str) -> bool:
    text.encode("utf-8")
    return "\n" not in text or not text.startswith("[error]")


_ids = itertools.count()


def _turn(fmt: str, name: str, args: dict[str, tuple[Any, str]]) -> dict[str, Any]:
    n = next(_ids)
    if fmt == "anthropic":
        return {"role": "assistant", "stop_reason": "tool_use", "content": [
            {"type": "tool_use", "id": f"toolu_{n}", "name": name,
             "input": {k: v for k, (v, _) in args.items()}}]}
    if fmt == "openai_chat":
        return {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{n}", "type": "function",
                 "function": {"name": name, "arguments": _json_text(args)}}]}}]}
    return {"output": [{"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}",
                        "name": name, "arguments": _json_text(args), "status": "completed"}],
            "status": "completed"}


def _strings(value: Any, depth: int = 0) -> list[str]:
    """Every string in ``value`` down to the depth toolhygiene cleans."""
    if isinstance(value, str):
        return [value]
    if depth > DATA_DEPTH:
        return []
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k, depth + 1),
                                                      *_strings(v, depth + 1))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, depth + 1)]
    return []


SETTINGS = settings(max_examples=examples(60), suppress_health_check=list(HealthCheck))


@SETTINGS
@given(NAME, ARGS, st.booleans())
def test_call_and_acall_never_raise_and_answer_in_valid_text(
        name: str, args: dict[str, tuple[Any, str]], as_json: bool) -> None:
    session = th.Session([book], max_failures=10**6)
    sent: Any = _json_text(args) if as_json else {k: v for k, (v, _) in args.items()}
    outcomes = [session.call(name, sent), asyncio.run(session.acall(name, sent))]
    for outcome in outcomes:
        assert _valid(outcome.content)
        if not outcome.ok:
            assert len(outcome.content) <= 300


@SETTINGS
@given(st.sampled_from(["anthropic", "openai_chat", "openai_responses"]),
       st.lists(st.tuples(NAME, ARGS), min_size=1, max_size=3), st.booleans())
def test_handle_and_ahandle_keep_the_list_valid_and_every_text_valid_utf8(
        fmt: str, rounds: list[tuple[str, dict[str, tuple[Any, str]]]], use_async: bool) -> None:
    session = th.Session([book], max_failures=2)
    messages: list[Any] = [{"role": "user", "content": "go"}]
    for name, args in rounds:
        turn = _turn(fmt, name, args)
        if use_async:
            going = asyncio.run(session.ahandle(turn, messages, format=fmt))  # type: ignore[arg-type]
        else:
            going = session.handle(turn, messages, format=fmt)  # type: ignore[arg-type]
        assert going
        check(messages, fmt)
        for text in _strings(messages):
            text.encode("utf-8")
