"""OpenAI Chat Completions: ``tool_calls`` on the assistant message, one ``tool`` message
per call with its ``tool_call_id``, right after it."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolhygiene._exceptions import UsageError
from toolhygiene.formats._base import (
    STUB,
    CachesItself,
    Call,
    Definition,
    Format,
    Messages,
    Round,
    StopState,
    as_dict,
    field,
    register_ids,
    with_note,
)

if TYPE_CHECKING:
    from toolhygiene._strict import Api

__all__ = ["OpenAIChat"]


def _call_ids(message: Any) -> list[str]:
    return [str(field(c, "id")) for c in field(message, "tool_calls") or ()]


def _choice(response: Any) -> Any:
    choices = field(response, "choices") or []
    if not choices:
        raise UsageError("the chat completion has no choices")
    return choices[0]


_MESSAGE_KEYS = ("content", "refusal", "name", "audio")


def _as_param(message: Mapping[str, Any]) -> dict[str, Any]:
    """The assistant message as the API takes it back: only the fields of an assistant
    message parameter (a response's ``annotations``, or the ``index``/``parsed_arguments``
    the SDK's stream helper adds to calls, are not accepted as input)."""
    param: dict[str, Any] = {"role": "assistant"}
    param.update((k, message[k]) for k in _MESSAGE_KEYS if message.get(k) is not None)
    audio = param.get("audio")
    if isinstance(audio, Mapping):
        param["audio"] = {"id": audio.get("id")}
    calls = message.get("tool_calls")
    if calls:
        param["tool_calls"] = [
            {
                "id": c.get("id"),
                "type": c.get("type", "function"),
                "function": {
                    "name": (c.get("function") or {}).get("name"),
                    "arguments": (c.get("function") or {}).get("arguments"),
                },
            }
            if c.get("type", "function") == "function"
            else c
            for c in calls
        ]
    return param


def _empty(message: Any) -> bool:
    """An assistant message with neither content nor calls: the API rejects it."""
    return not field(message, "content") and not field(message, "tool_calls")


class OpenAIChat(CachesItself):
    name: Format = "openai_chat"
    strict_rules: Api = "openai"

    def definition(self, tool: Definition) -> dict[str, Any]:
        return {"type": "function", "function": tool.spelled("parameters")}

    def assistant_items(self, response: Any) -> list[dict[str, Any]]:
        message = _as_param(as_dict(field(_choice(response), "message")))
        return [] if _empty(message) else [message]

    def stop_state(self, response: Any) -> StopState:
        choice = _choice(response)
        reason = field(choice, "finish_reason")
        if not reason:
            raise UsageError(
                "the completion has no finish_reason: it is not finished. Pass the stream, "
                "the chunks read from it, or the helper's get_final_completion()"
            )
        if reason == "length":
            return "truncated"
        if reason == "content_filter" or field(field(choice, "message"), "refusal"):
            return "refused"
        return "finished"

    def position(self, messages: Sequence[Any], call_id: str) -> int | None:
        for at in range(len(messages) - 1, -1, -1):
            if field(messages[at], "role") == "assistant" and call_id in _call_ids(messages[at]):
                return at
        return None

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
        self,
        results: Sequence[tuple[Call, str, bool]],
        note: str | None,
        recovered: Collection[str] = (),
    ) -> list[dict[str, Any]]:
        return [
            {"role": "tool", "tool_call_id": call.id, "content": text}
            for call, text, _ in with_note(results, note, recovered)
        ]

    def remove(self, messages: Messages, round_: Round) -> bool:
        at = self.position(messages, round_.ids[0])
        if at is None:
            return False
        end = at + 1 + len(round_.ids)
        ids = [str(field(m, "tool_call_id")) for m in messages[at + 1 : end]]
        if sorted(ids) != sorted(round_.ids):
            return False
        del messages[at:end]
        return True

    def stub(self, messages: Messages, round_: Round) -> None:
        at = self.position(messages, round_.ids[0])
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
                if _empty(message):
                    raise UsageError(f"message {at}: assistant message with no content or calls")
                open_ids = _call_ids(message)
                register_ids(seen, open_ids, at)
        if open_ids:
            raise UsageError(f"the last assistant message has calls without results: {open_ids}")
