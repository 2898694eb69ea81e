"""The validator names the first place an API would reject a message list."""

from __future__ import annotations

from typing import Any

import pytest

import toolhygiene as th
from toolhygiene.formats import check, detect

USER = {"role": "user", "content": "hi"}


def anthropic_call(*ids: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [
        {"type": "tool_use", "id": i, "name": "t", "input": {}} for i in ids]}


def anthropic_results(*ids: str, text_first: bool = False) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = [{"type": "tool_result", "tool_use_id": i, "content": "x"}
                                    for i in ids]
    if text_first:
        blocks.insert(0, {"type": "text", "text": "note"})
    return {"role": "user", "content": blocks}


@pytest.mark.parametrize(("messages", "problem"), [
    ([anthropic_call("a")], "role 'assistant' where 'user' must come"),
    ([USER, {"role": "system", "content": "x"}], "role 'system' where 'user' or"),
    ([USER, {"role": "assistant", "content": []}], "empty assistant message"),
    ([USER, {"role": "assistant", "content": [{"type": "text", "text": " "}]}], "empty text"),
    ([USER, anthropic_call("a"), anthropic_results()], "empty user message"),
    ([USER, anthropic_call("a"), USER], "do not match calls"),
    ([USER, anthropic_call("a"), anthropic_call("b")], "have no results before it"),
    ([USER, anthropic_call("a"), anthropic_results("a", "b")], "do not match calls"),
    ([USER, anthropic_call("a"), anthropic_results("a", text_first=True)], "must come first"),
    ([USER, anthropic_call("a")], "calls without results"),
    ([USER, anthropic_call("a"), anthropic_results("a"), anthropic_call("a")], "used twice"),
])
def test_anthropic_problems(messages: list[Any], problem: str) -> None:
    with pytest.raises(th.UsageError, match=problem):
        check(messages, "anthropic")


def chat_call(*ids: str) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": i, "type": "function", "function": {"name": "t", "arguments": "{}"}} for i in ids]}


def chat_result(i: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": i, "content": "x"}


@pytest.mark.parametrize(("messages", "problem"), [
    ([USER, chat_result("a")], "has no open call"),
    ([USER, chat_call("a", "b"), chat_result("a"), USER], "have no results before it"),
    ([USER, chat_call("a")], "calls without results"),
    ([USER, {"role": "assistant", "content": None}], "no content or calls"),
    ([USER, {"role": "assistant", "content": ""}], "no content or calls"),
    ([USER, chat_call("a"), chat_result("a"), chat_call("a"), chat_result("a")], "used twice"),
])
def test_openai_chat_problems(messages: list[Any], problem: str) -> None:
    with pytest.raises(th.UsageError, match=problem):
        check(messages, "openai_chat")


def fc(i: str) -> dict[str, Any]:
    return {"type": "function_call", "call_id": i, "name": "t", "arguments": "{}"}


def out(i: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": i, "output": "x"}


@pytest.mark.parametrize(("items", "problem"), [
    ([USER, out("a")], "has no open call"),
    ([USER, fc("a"), out("a"), out("a")], "has no open call"),
    ([USER, fc("a")], "calls without outputs"),
    ([USER, fc("a"), out("a"), fc("a")], "used twice"),
    ([USER, {"type": "message", "role": "assistant", "content": []}], "message with no content"),
])
def test_openai_responses_problems(items: list[Any], problem: str) -> None:
    with pytest.raises(th.UsageError, match=problem):
        check(items, "openai_responses")


@pytest.mark.parametrize(("fmt", "messages"), [
    ("anthropic", [USER, anthropic_call("a", "b"), anthropic_results("b", "a")]),
    # The API merges consecutive turns of one role (a paused turn and its continuation).
    ("anthropic", [USER, USER, {"role": "assistant", "content": "a"},
                   {"role": "assistant", "content": [{"type": "text", "text": "b"}]}]),
    ("openai_chat", [{"role": "system", "content": "s"}, USER, chat_call("a", "b"),
                     chat_result("b"), chat_result("a"), USER]),
    ("openai_responses", [USER, fc("a"), fc("b"), out("b"), out("a")]),
])
def test_valid_lists_pass(fmt: str, messages: list[Any]) -> None:
    check(messages, fmt)


def test_unknown_format() -> None:
    with pytest.raises(th.UsageError, match="unknown format 'gemini'"):
        check([], "gemini")


@pytest.mark.parametrize(("response", "fmt"), [
    ({"choices": []}, "openai_chat"),
    ({"output": [], "object": "response"}, "openai_responses"),
    ({"content": [], "stop_reason": "end_turn"}, "anthropic"),
])
def test_detect(response: dict[str, Any], fmt: str) -> None:
    assert detect(response) == fmt
