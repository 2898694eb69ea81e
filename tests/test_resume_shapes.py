"""``Session.resume`` reads every shape ``handle`` accepts: SDK objects at any level of a
list (Anthropic's ``{"role": "assistant", "content": response.content}``, an OpenAI
message dict whose ``tool_calls`` are SDK objects, a tool call dict whose ``function``
is one, ...), mixed with dicts however they come; and a model turn nested deeper than
the stack, which ``handle`` answered, is read with its arguments left opaque."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any, cast

import anthropic.types
import openai.types.chat
import openai.types.responses
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples
from toolhygiene.testing import model_turn

FORMATS = ["anthropic", "openai_chat", "openai_responses"]

_CHAT_CALL: Any = getattr(
    openai.types.chat, "ChatCompletionMessageFunctionToolCall", None
) or openai.types.chat.ChatCompletionMessageToolCall


def _tools() -> list[Any]:
    @th.tool(max_failures=3)
    def lookup(how: str, n: int) -> str:
        """Look something up.

        Args:
            how: ok or bad.
            n: the call's number.
        """
        if how != "ok":
            raise th.ToolError(f"no record {'x' * (n + 1)} exists", retryable=False,
                               category="not_found")
        return "found"

    @th.tool
    def search(how: str, n: int) -> str:
        """Search.

        Args:
            how: ok or bad.
            n: the call's number.
        """
        if how != "ok":
            raise th.ToolError(f"query {'y' * (n + 1)} is malformed", retryable=False,
                               category="bad_request")
        return "hits"

    return [lookup, search]


def _sdk_anthropic(message: dict[str, Any], flip: Callable[[], bool]) -> Any:
    content = message.get("content")
    if message.get("role") != "assistant" or not isinstance(content, list):
        return message
    blocks = [
        (anthropic.types.ToolUseBlock if b["type"] == "tool_use" else anthropic.types.TextBlock)
        .model_validate(b) if flip() else b
        for b in content
    ]
    return {**message, "content": blocks}  # response.content in a dict: Anthropic's recipe


def _sdk_chat(message: dict[str, Any], flip: Callable[[], bool]) -> Any:
    if message.get("role") != "assistant" or not message.get("tool_calls"):
        return message
    if flip():  # the SDK's message as the API returned it
        return openai.types.chat.ChatCompletionMessage.model_validate(message)
    calls: list[Any] = []
    for call in message["tool_calls"]:
        sdk = _CHAT_CALL.model_validate(call)
        if flip():
            calls.append(sdk)  # an SDK tool call in a dict message
        elif flip():
            calls.append({**call, "function": sdk.function})  # an SDK function in a dict
        else:
            calls.append(call)
    return {**message, "tool_calls": calls}


def _sdk_responses(item: dict[str, Any], flip: Callable[[], bool]) -> Any:
    if item.get("type") == "function_call" and flip():
        return openai.types.responses.ResponseFunctionToolCall.model_validate(item)
    return item


_SDK = {"anthropic": _sdk_anthropic, "openai_chat": _sdk_chat, "openai_responses": _sdk_responses}

CALL = st.tuples(st.sampled_from(["lookup", "search"]), st.sampled_from(["ok", "bad", "bad"]))
SCRIPT = st.lists(
    st.lists(CALL, min_size=1, max_size=2, unique_by=lambda c: c[0]), min_size=1, max_size=5
)


def _decided(session: th.Session, turn: dict[str, Any], messages: list[Any], fmt: str) -> Any:
    with th.testing.capture() as seen:
        session.handle(copy.deepcopy(turn), messages, format=fmt)  # type: ignore[arg-type]
    return sorted((o.ok, o.content) for o in seen.outcomes)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=examples(15), deadline=None)
@given(script=SCRIPT, flips=st.lists(st.booleans(), min_size=40, max_size=40))
def test_sdk_objects_at_any_level_resume_as_their_dicts(
    fmt: str, script: list[list[tuple[str, str]]], flips: list[bool]
) -> None:
    """A list holding SDK objects (whole messages, blocks or tool calls in dicts, a
    function in a tool call dict), mixed with dicts, resumes exactly as its plain dicts:
    the same counts and closings, and the same lines for the calls that follow."""
    tools, numbers = _tools(), iter(range(1000))
    turns = [
        model_turn(fmt, [(name, {"how": how, "n": next(numbers)}) for name, how in calls])
        for calls in script
    ]
    original, messages = th.Session(tools), [{"role": "user", "content": "go"}]
    for turn in turns[:-1]:
        original.handle(copy.deepcopy(turn), messages, format=fmt)  # type: ignore[arg-type]
    coins = iter(flips * 8)
    mixed = [_SDK[fmt](copy.deepcopy(m), lambda: next(coins)) for m in messages]

    from_dicts = th.Session(tools).resume(copy.deepcopy(messages))
    from_mixed = th.Session(tools).resume(mixed)
    assert from_mixed.stats()["failures"] == from_dicts.stats()["failures"]
    assert from_mixed.stats()["closed"] == from_dicts.stats()["closed"]
    assert from_mixed.stats()["failures"] == original.stats()["failures"]
    theirs = copy.deepcopy(messages)
    ours = _decided(from_mixed, turns[-1], mixed, fmt)
    assert ours == _decided(from_dicts, turns[-1], theirs, fmt)


def test_anthropic_response_content_in_a_dict_resumes() -> None:
    """Anthropic's documented loop, ``messages.append({"role": "assistant", "content":
    response.content})``: its failure is read back and counts toward the cap."""
    tools = _tools()
    turn = model_turn("anthropic", [("lookup", {"how": "bad", "n": 1})])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    th.Session(tools).handle(copy.deepcopy(turn), messages, format="anthropic")
    response = anthropic.types.Message.model_validate(
        {"id": "m1", "type": "message", "role": "assistant", "model": "m",
         "stop_reason": "tool_use", "stop_sequence": None,
         "usage": {"input_tokens": 1, "output_tokens": 1}, "content": messages[1]["content"]}
    )
    messages[1] = {"role": "assistant", "content": response.content}
    resumed = th.Session(tools).resume(messages)
    assert resumed.stats()["failures"] == {"lookup": 1}


def test_a_turn_nested_past_the_stack_resumes() -> None:
    """A model turn whose arguments nest 5,000 levels (the model controls them) is
    answered by ``handle``; the list it leaves resumes, its arguments opaque, and the
    conversation goes on. (Anthropic keeps the arguments as data in the list; the OpenAI
    formats keep them as a JSON string, which nesting cannot deepen.)"""
    fmt: Any = "anthropic"
    tools = _tools()
    deep: Any = functools.reduce(lambda inner, _: [inner], range(5000), cast(Any, []))
    messages: list[Any] = [{"role": "user", "content": "go"}]
    session = th.Session(tools)
    session.handle(model_turn(fmt, [("lookup", {"how": "bad", "n": 1})]), messages, format=fmt)
    session.handle(model_turn(fmt, [("search", {"how": "ok", "n": deep})]), messages, format=fmt)
    resumed = th.Session(tools).resume(list(messages))
    assert resumed.stats()["failures"] == session.stats()["failures"]
    assert resumed.stats()["closed"] == session.stats()["closed"]
    assert _decided(resumed, model_turn(fmt, [("lookup", {"how": "ok", "n": 2})]), messages,
                    fmt) == [(True, "found")]
