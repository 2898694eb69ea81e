"""OpenAI Chat Completions: ``tool_calls`` on the assistant message, one ``tool`` message
per call with its ``tool_call_id``, right after it; a stream of ``chat.completion.chunk``
deltas."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from toolhygiene._exceptions import UsageError
from toolhygiene.formats._base import (
    STUB,
    CachesItself,
    Call,
    Definition,
    Exchange,
    Format,
    Messages,
    Round,
    StopState,
    StrictRules,
    TellsNoChain,
    as_dict,
    content_text,
    field,
    register_ids,
    unfinished,
    with_note,
)

__all__ = ["STRICT", "OpenAIChat"]

STRICT = StrictRules(
    "openai",
    "OpenAI",
    kept=frozenset(
        {"pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
        | {"multipleOf", "minItems", "maxItems"}
    ),
    values={
        "format": frozenset(
            {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6"}
            | {"uuid"}
        ),
    },
)
"""OpenAI's strict mode, the same in Chat Completions and Responses."""


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


def _assemble(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    choices: dict[int, dict[str, Any]] = {}
    for chunk in chunks:
        for part in chunk.get("choices") or ():
            choice = choices.setdefault(
                int(part.get("index") or 0),
                {"index": int(part.get("index") or 0), "message": {"role": "assistant"}},
            )
            _delta(choice["message"], part.get("delta") or {})
            if part.get("finish_reason"):
                choice["finish_reason"] = part["finish_reason"]
    if not choices:
        raise unfinished("no choice")
    for choice in choices.values():
        if not choice.get("finish_reason"):
            raise unfinished("no finish_reason")
        choice["message"].setdefault("content", None)
    head = chunks[0]
    return {
        "id": head.get("id"),
        "object": "chat.completion",
        "created": head.get("created", 0),
        "model": head.get("model"),
        "choices": [choices[i] for i in sorted(choices)],
    }


def _delta(message: dict[str, Any], delta: dict[str, Any]) -> None:
    """One chunk's delta added to its choice's message."""
    for key in ("content", "refusal"):
        if delta.get(key):
            message[key] = (message.get(key) or "") + delta[key]
    for call in delta.get("tool_calls") or ():
        calls = message.setdefault("tool_calls", [])
        at = int(call.get("index") or 0)
        while len(calls) <= at:
            calls.append({"type": "function", "function": {"name": "", "arguments": ""}})
        target = calls[at]
        if call.get("id"):
            target["id"] = call["id"]
        function = call.get("function") or {}
        target["function"]["name"] += function.get("name") or ""
        target["function"]["arguments"] += function.get("arguments") or ""


class OpenAIChat(TellsNoChain, CachesItself):
    name: Format = "openai_chat"
    strict_rules = STRICT
    holds_history = False
    final_method = "get_final_completion"
    events_first = False

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

    def shows(self, message: Any) -> bool:
        return bool(field(message, "tool_calls")) or field(message, "role") == "tool"

    def exchanges(self, items: list[dict[str, Any]]) -> Iterator[Exchange]:
        for at, message in enumerate(items):
            if message.get("role") != "assistant" or not message.get("tool_calls"):
                continue
            results: dict[str, tuple[str, bool | None]] = {}
            for reply in items[at + 1 :]:
                if reply.get("role") != "tool":
                    break
                results[str(reply.get("tool_call_id"))] = (
                    content_text(reply.get("content")),
                    None,
                )
            yield Exchange(at, [message], results)

    def results_in(self, message: Any) -> list[str]:
        return [str(field(message, "tool_call_id"))] if field(message, "role") == "tool" else []

    def final_of_error(self, exc: Exception) -> Any:
        # The stream helper raises with the completion on a cut or filtered turn
        # (LengthFinishReasonError, ContentFilterFinishReasonError).
        return getattr(exc, "completion", None)

    def streams(self, first: Mapping[str, Any]) -> bool:
        return first.get("object") == "chat.completion.chunk" or "choices" in first

    def assemble(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        return _assemble(events)
