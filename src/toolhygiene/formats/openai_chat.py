"""OpenAI Chat Completions: ``tool_calls`` on the assistant message, one ``tool`` message
per call with its ``tool_call_id``, right after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolhygiene._exceptions import UsageError
from toolhygiene.formats._base import (
    STUB,
    Call,
    Messages,
    Round,
    as_dict,
    field,
    register_ids,
    with_note,
)

__all__ = ["OpenAIChat"]


def _call_ids(message: Any) -> list[str]:
    return [str(field(c, "id")) for c in field(message, "tool_calls") or ()]


class OpenAIChat:
    name = "openai_chat"

    def assistant_items(self, response: Any) -> list[dict[str, Any]]:
        choices = field(response, "choices") or []
        if not choices:
            raise UsageError("the chat completion has no choices")
        message = as_dict(field(choices[0], "message"))
        message["role"] = "assistant"
        return [message]

    def calls(self, items: Sequence[Mapping[str, Any]]) -> list[Call]:
        return [
            Call(str(c["id"]), str(c["function"]["name"]), c["function"].get("arguments") or "{}")
            for item in items
            for c in item.get("tool_calls") or ()
            if c.get("type", "function") == "function"
        ]

    def said_more(self, items: Sequence[Mapping[str, Any]]) -> bool:
        return any(bool(item.get("content")) for item in items)

    def result_items(
        self, results: Sequence[tuple[Call, str, bool]], note: str | None
    ) -> list[dict[str, Any]]:
        return [
            {"role": "tool", "tool_call_id": call.id, "content": text}
            for call, text, _ in with_note(results, note)
        ]

    def _find(self, messages: Messages, round_: Round) -> int | None:
        for at in range(len(messages) - 1, -1, -1):
            if field(messages[at], "role") == "assistant" and round_.ids[0] in _call_ids(
                messages[at]
            ):
                return at
        return None

    def remove(self, messages: Messages, round_: Round) -> bool:
        at = self._find(messages, round_)
        if at is None:
            return False
        end = at + 1 + len(round_.ids)
        ids = [str(field(m, "tool_call_id")) for m in messages[at + 1 : end]]
        if sorted(ids) != sorted(round_.ids):
            return False
        del messages[at:end]
        return True

    def stub(self, messages: Messages, round_: Round) -> None:
        at = self._find(messages, round_)
        if at is None:
            return
        for message in messages[at + 1 : at + 1 + len(round_.ids)]:
            if isinstance(message, dict) and message.get("tool_call_id") in round_.failed:
                message["content"] = STUB

    def check(self, messages: Sequence[Any]) -> None:
        open_ids: list[str] = []
        seen: set[str] = set()
        for at, message in enumerate(messages):
            role = field(message, "role")
            if role == "tool":
                call_id = str(field(message, "tool_call_id"))
                if call_id not in open_ids:
                    raise UsageError(f"message {at}: tool result {call_id!r} has no open call")
                open_ids.remove(call_id)
                continue
            if open_ids:
                raise UsageError(f"message {at}: calls {open_ids} have no results before it")
            if role == "assistant":
                open_ids = _call_ids(message)
                register_ids(seen, open_ids, at)
        if open_ids:
            raise UsageError(f"the last assistant message has calls without results: {open_ids}")
