"""Anthropic Messages: ``tool_use`` blocks in the assistant turn, ``tool_result`` blocks
(first) in the next user turn, ``is_error`` on failures; a stream of ``message_start`` …
``message_stop`` events."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any, Literal

from toolhygiene import _checks
from toolhygiene._exceptions import UsageError
from toolhygiene.formats._base import (
    STUB,
    Call,
    Definition,
    Exchange,
    Format,
    Messages,
    Round,
    StopState,
    StrictRules,
    TellsNoChain,
    as_dicts,
    content_text,
    field,
    register_ids,
    unfinished,
)

__all__ = ["STRICT", "AnthropicMessages"]

STRICT = StrictRules(
    "anthropic",
    "Anthropic",
    kept=frozenset({"format", "minItems"}),
    values={
        "format": frozenset(
            {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4"}
            | {"ipv6", "uuid"}
        ),
        "minItems": frozenset({0, 1}),
    },
    recursive=False,
)
"""Anthropic's strict mode: few keywords kept, ``minItems`` only 0 or 1, no model that
contains itself."""


def _blocks(message: Any) -> list[Any]:
    content = field(message, "content")
    return list(content) if isinstance(content, list) else []


def _tool_use_ids(message: Any) -> list[str]:
    return [str(field(b, "id")) for b in _blocks(message) if field(b, "type") == "tool_use"]


def _blank(block: Any) -> bool:
    """A text block with no visible text: the API rejects it."""
    return field(block, "type") == "text" and not str(field(block, "text") or "").strip()


_STATES: dict[str, StopState] = {
    "max_tokens": "truncated",
    "model_context_window_exceeded": "truncated",
    "pause_turn": "paused",
    "refusal": "refused",
}


_CUT = ("max_tokens", "model_context_window_exceeded")


def _assemble(events: list[dict[str, Any]]) -> dict[str, Any]:
    message: dict[str, Any] | None = None
    partial: dict[int, str] = {}
    stopped = False
    for event in events:
        kind = event.get("type")
        stopped = stopped or kind == "message_stop"
        if kind == "message_start":
            message = {**event["message"], "content": list(event["message"].get("content") or [])}
        elif message is None:
            continue
        elif kind == "content_block_start":
            message["content"].append(dict(event["content_block"]))
        elif kind == "content_block_delta":
            at = int(event["index"])
            _delta(message["content"][at], event["delta"], at, partial)
        elif kind == "message_delta":
            message.update(event.get("delta") or {})
            if event.get("usage"):
                message["usage"] = {**message.get("usage", {}), **event["usage"]}
    if message is None:
        raise unfinished("no message_start")
    if not message.get("stop_reason"):
        raise unfinished("no stop_reason")
    if not stopped:
        raise unfinished("no message_stop")
    cut = message["stop_reason"] in _CUT
    for at, text in partial.items():
        message["content"][at]["input"] = _arguments(text, cut)
    return message


def _delta(block: dict[str, Any], delta: dict[str, Any], at: int, partial: dict[int, str]) -> None:
    """One delta added to its block (a call's arguments gathered in ``partial``)."""
    dtype = delta.get("type")
    if dtype == "text_delta":
        block["text"] = block.get("text", "") + delta["text"]
    elif dtype == "input_json_delta":
        partial[at] = partial.get(at, "") + delta["partial_json"]
    elif dtype == "thinking_delta":
        block["thinking"] = block.get("thinking", "") + delta["thinking"]
    elif dtype == "signature_delta":
        block["signature"] = delta["signature"]
    elif dtype == "citations_delta":
        block.setdefault("citations", []).append(delta["citation"])


def _arguments(text: str, cut: bool) -> Any:
    """A streamed call's arguments; a cut turn's may not parse (it never runs)."""
    try:
        return json.loads(text) if text else {}
    except ValueError:
        if not cut:
            raise unfinished("a call's arguments do not parse") from None
        return {}


class AnthropicMessages(TellsNoChain):
    name: Format = "anthropic"
    strict_rules = STRICT
    holds_history = True
    final_method = "get_final_message"
    events_first = False

    def definition(self, tool: Definition) -> dict[str, Any]:
        return {
            **tool.spelled("input_schema"),
            **tool.taken("input_examples", "defer_loading", "cache_control"),
        }

    def cached(
        self, definitions: list[dict[str, Any]], cache_control: Mapping[str, Any] | Literal[True]
    ) -> list[dict[str, Any]]:
        # On the last definition, a breakpoint covers every definition before it.
        if not definitions:
            return definitions
        marker = (
            {"type": "ephemeral"}
            if cache_control is True
            else _checks.cache_control("cache_control", cache_control)
        )
        return [*definitions[:-1], {**definitions[-1], "cache_control": marker}]

    def assistant_items(self, response: Any) -> list[dict[str, Any]]:
        blocks = [b for b in as_dicts(field(response, "content")) if not _blank(b)]
        return [{"role": "assistant", "content": blocks}] if blocks else []

    def stop_state(self, response: Any) -> StopState:
        reason = field(response, "stop_reason")
        if not reason:
            raise UsageError(
                "the message has no stop_reason: it is not finished (a stream's snapshot?). "
                "Pass the stream, or its get_final_message()"
            )
        return _STATES.get(str(reason), "finished")

    def position(self, messages: Sequence[Any], call_id: str) -> int | None:
        for at in range(len(messages) - 1, -1, -1):
            if field(messages[at], "role") == "assistant" and call_id in _tool_use_ids(
                messages[at]
            ):
                return at
        return None

    def calls(self, items: Sequence[Mapping[str, Any]]) -> list[Call]:
        return [
            Call(str(b["id"]), str(b["name"]), b.get("input") or {})
            for item in items
            for b in item["content"]
            if b.get("type") == "tool_use"
        ]

    def said_more(self, items: Sequence[Mapping[str, Any]]) -> bool:
        return any(
            b.get("type") != "tool_use" and (b.get("type") != "text" or b.get("text", "").strip())
            for item in items
            for b in item["content"]
        )

    def result_items(
        self,
        results: Sequence[tuple[Call, str, bool]],
        note: str | None,
        recovered: Collection[str] = (),
    ) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        for call, content, ok in results:
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": call.id,
                "content": content,
            }
            if not ok:
                block["is_error"] = True
            blocks.append(block)
        if note:
            blocks.append({"type": "text", "text": note})
        return [{"role": "user", "content": blocks}]

    def remove(self, messages: Messages, round_: Round) -> bool:
        at = self.position(messages, round_.ids[0])
        if at is None or at + 1 >= len(messages):
            return False
        results = _blocks(messages[at + 1])
        if {str(field(b, "tool_use_id")) for b in results} != set(round_.ids) or any(
            field(b, "type") != "tool_result" for b in results
        ):
            return False
        del messages[at : at + 2]
        return True

    def stub(self, messages: Messages, round_: Round) -> None:
        at = self.position(messages, round_.ids[0])
        if at is None or at + 1 >= len(messages):
            return
        for block in _blocks(messages[at + 1]):
            if isinstance(block, dict) and block.get("tool_use_id") in round_.failed:
                block["content"] = STUB
                block.pop("is_error", None)

    def check(self, messages: Sequence[Any]) -> None:
        # Consecutive turns of one role are merged by the API, except that the results of
        # an assistant turn's calls must open the very next user turn.
        open_ids: list[str] = []
        seen: set[str] = set()
        for at, message in enumerate(messages):
            role = field(message, "role")
            if at == 0 and role != "user":
                raise UsageError(f"message 0: role {role!r} where 'user' must come")
            if role not in ("user", "assistant"):
                raise UsageError(
                    f"message {at}: role {role!r} where 'user' or 'assistant' must come"
                )
            content = field(message, "content")
            blocks = _blocks(message) if not isinstance(content, str) else []
            if not (blocks or (isinstance(content, str) and content.strip())) or any(
                _blank(b) for b in blocks
            ):
                raise UsageError(f"message {at}: empty {role} message or empty text block")
            if role == "assistant":
                if open_ids:
                    raise UsageError(f"message {at}: calls {open_ids} have no results before it")
                open_ids = _tool_use_ids(message)
                register_ids(seen, open_ids, at)
                continue
            kinds = [field(b, "type") for b in blocks]
            results = [
                str(field(b, "tool_use_id")) for b in blocks if field(b, "type") == "tool_result"
            ]
            if results and kinds[: len(results)] != ["tool_result"] * len(results):
                raise UsageError(f"message {at}: tool_result blocks must come first")
            if sorted(results) != sorted(open_ids):
                raise UsageError(
                    f"message {at}: results {sorted(results)} do not match calls {sorted(open_ids)}"
                )
            open_ids = []
        if open_ids:
            raise UsageError(f"the last assistant turn has calls without results: {open_ids}")

    def shows(self, message: Any) -> bool:
        content = field(message, "content")
        return isinstance(content, list) and any(
            field(b, "type") in ("tool_use", "tool_result") for b in content
        )

    def exchanges(self, items: list[dict[str, Any]]) -> Iterator[Exchange]:
        for at, message in enumerate(items):
            content = message.get("content")
            if message.get("role") != "assistant" or not isinstance(content, list):
                continue
            if not any(field(b, "type") == "tool_use" for b in content):
                continue
            reply = items[at + 1].get("content") if at + 1 < len(items) else None
            results: dict[str, tuple[str, bool | None]] = {}
            note = ""
            for block in reply if isinstance(reply, list) else ():
                if field(block, "type") == "tool_result":
                    results[str(field(block, "tool_use_id"))] = (
                        content_text(field(block, "content")),
                        bool(field(block, "is_error", False)),
                    )
                elif field(block, "type") == "text" and not note:
                    note = str(field(block, "text") or "")
            yield Exchange(at, [message], results, note)

    def results_in(self, message: Any) -> list[str]:
        content = field(message, "content")
        if not isinstance(content, list):
            return []
        return [str(field(b, "tool_use_id")) for b in content if field(b, "type") == "tool_result"]

    def final_of_error(self, exc: Exception) -> Any:
        return None

    def streams(self, first: Mapping[str, Any]) -> bool:
        return first.get("type") in ("message_start", "content_block_start", "ping")

    def assemble(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        return _assemble(events)
