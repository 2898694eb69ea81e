"""Model turns in each API's JSON, for a ``ScriptedServer`` to play or for ``handle`` to
read as dicts: offline tests of a whole agent loop."""

from __future__ import annotations

import itertools
import json
from typing import Any, Literal

__all__ = [
    "TURNS",
    "anthropic_turn",
    "chat_turn",
    "model_turn",
    "responses_turn",
    "stream_events",
]

ToolCall = tuple[str, dict[str, Any]]
"""(tool name, arguments)"""

Ending = Literal["finished", "truncated", "paused", "refused"]
"""How the turn ends: finished, cut by the token limit, paused by the API (Anthropic),
refused."""

_ANTHROPIC_REASONS = {"truncated": "max_tokens", "paused": "pause_turn", "refused": "refusal"}

_ids = itertools.count(1)


def anthropic_turn(
    calls: list[ToolCall], text: str = "", ending: Ending = "finished"
) -> dict[str, Any]:
    """An Anthropic ``Message`` asking for ``calls`` (or ending the turn with ``text``)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content += [
        {"type": "tool_use", "id": f"toolu_{next(_ids)}", "name": name, "input": args}
        for name, args in calls
    ]
    return {
        "id": f"msg_{next(_ids)}",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": _ANTHROPIC_REASONS.get(ending, "tool_use" if calls else "end_turn"),
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def chat_turn(calls: list[ToolCall], text: str = "", ending: Ending = "finished") -> dict[str, Any]:
    """An OpenAI ``ChatCompletion`` asking for ``calls``."""
    if ending == "paused":
        raise ValueError("OpenAI chat completions have no paused turns")
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if ending == "refused":
        message["refusal"] = text or "I can't help with that."
        message["content"] = None
    reason = {"truncated": "length", "refused": "stop"}.get(
        ending, "tool_calls" if calls else "stop"
    )
    if calls:
        message["tool_calls"] = [
            {
                "id": f"call_{next(_ids)}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for name, args in calls
        ]
    return {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-test",
        "choices": [{"index": 0, "message": message, "finish_reason": reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def responses_turn(
    calls: list[ToolCall], text: str = "", ending: Ending = "finished"
) -> dict[str, Any]:
    """An OpenAI ``Response`` whose output asks for ``calls``."""
    if ending == "paused":
        raise ValueError("OpenAI responses have no paused turns")
    output: list[dict[str, Any]] = []
    if text or ending == "refused":
        part = (
            {"type": "refusal", "refusal": text or "I can't help with that."}
            if ending == "refused"
            else {"type": "output_text", "text": text, "annotations": []}
        )
        output.append(
            {
                "type": "message",
                "id": f"msg_{next(_ids)}",
                "role": "assistant",
                "status": "completed",
                "content": [part],
            }
        )
    for name, args in calls:
        n = next(_ids)
        output.append(
            {
                "type": "function_call",
                "id": f"fc_{n}",
                "call_id": f"call_{n}",
                "name": name,
                "arguments": json.dumps(args),
                "status": "completed",
            }
        )
    cut = ending == "truncated"
    return {
        "id": f"resp_{next(_ids)}",
        "object": "response",
        "created_at": 0,
        "status": "incomplete" if cut else "completed",
        "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
        "model": "gpt-test",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


TURNS = {"anthropic": anthropic_turn, "openai_chat": chat_turn, "openai_responses": responses_turn}


def model_turn(
    fmt: str, calls: list[ToolCall], text: str = "", ending: Ending = "finished"
) -> dict[str, Any]:
    """A model turn in the JSON of ``fmt`` (``anthropic``, ``openai_chat``,
    ``openai_responses``) calling ``calls`` with ids unique in the process; ``ending``
    makes it a turn cut by the token limit, paused (Anthropic) or refused."""
    return TURNS[fmt](calls, text, ending)


def _pieces(text: str, cut_to: int | None) -> list[str]:
    if cut_to is not None:
        text = text[:cut_to]
    return [text[i : i + 7] for i in range(0, len(text), 7)] or [""]


def stream_events(
    fmt: str, turn: dict[str, Any], cut_to: int | None = None
) -> list[tuple[str | None, Any]]:
    """``turn`` (from ``model_turn``) as the server-sent events of a streamed answer, for
    ``ScriptedServer.push(events=...)``: Anthropic Messages, OpenAI chat or Responses.
    ``cut_to`` cuts the last call's JSON arguments to that many characters, as the token
    limit does."""
    if fmt == "anthropic":
        return _anthropic_events(turn, cut_to)
    if fmt == "openai_chat":
        return _chat_chunks(turn, cut_to)
    if fmt == "openai_responses":
        return _responses_events(turn, cut_to)
    raise ValueError(f"no stream for {fmt!r}")


def _anthropic_events(turn: dict[str, Any], cut_to: int | None) -> list[tuple[str | None, Any]]:
    start = {**turn, "content": [], "stop_reason": None}
    events: list[tuple[str | None, Any]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    blocks = turn["content"]
    for index, block in enumerate(blocks):
        first: dict[str, Any]
        if block["type"] == "text":
            first = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": block["text"]}]
        elif block["type"] == "thinking":
            first = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [
                {"type": "thinking_delta", "thinking": piece}
                for piece in _pieces(block["thinking"], None)
            ] + [{"type": "signature_delta", "signature": block["signature"]}]
        elif block["type"] != "tool_use":
            first, deltas = dict(block), []
        else:
            first = {**block, "input": {}}
            last = index == len(blocks) - 1
            deltas = [
                {"type": "input_json_delta", "partial_json": piece}
                for piece in _pieces(json.dumps(block["input"]), cut_to if last else None)
            ]
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": first},
            )
        )
        events += [
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
            for d in deltas
        ]
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": turn["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def _chat_chunks(turn: dict[str, Any], cut_to: int | None) -> list[tuple[str | None, Any]]:
    choice = turn["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> tuple[str | None, Any]:
        return (
            None,
            {
                "id": turn["id"],
                "object": "chat.completion.chunk",
                "created": 0,
                "model": turn["model"],
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            },
        )

    first = {"role": "assistant", "content": message.get("content")}
    if message.get("refusal"):
        first["refusal"] = message["refusal"]
    events = [chunk(first)]
    calls = message.get("tool_calls") or []
    for index, call in enumerate(calls):
        head = {**call, "index": index, "function": {**call["function"], "arguments": ""}}
        events.append(chunk({"tool_calls": [head]}))
        last = index == len(calls) - 1
        events.extend(
            chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            for piece in _pieces(call["function"]["arguments"], cut_to if last else None)
        )
    events.append(chunk({}, choice["finish_reason"]))
    events.append((None, "[DONE]"))
    return events


def _responses_events(turn: dict[str, Any], cut_to: int | None) -> list[tuple[str | None, Any]]:
    output = turn["output"]
    numbers = itertools.count()
    start = {**turn, "status": "in_progress", "output": []}

    def event(kind: str, **data: Any) -> tuple[str | None, Any]:
        return (kind, {"type": kind, "sequence_number": next(numbers), **data})

    events = [event("response.created", response=start)]
    for index, item in enumerate(output):
        if item["type"] != "function_call":
            events.append(event("response.output_item.added", output_index=index, item=item))
            events.append(event("response.output_item.done", output_index=index, item=item))
            continue
        last = index == len(output) - 1
        pieces = _pieces(item["arguments"], cut_to if last else None)
        head = {**item, "arguments": "", "status": "in_progress"}
        events.append(event("response.output_item.added", output_index=index, item=head))
        events += [
            event(
                "response.function_call_arguments.delta",
                output_index=index,
                item_id=item["id"],
                delta=piece,
            )
            for piece in pieces
        ]
        if cut_to is None or not last:
            events.append(
                event(
                    "response.function_call_arguments.done",
                    output_index=index,
                    item_id=item["id"],
                    arguments=item["arguments"],
                )
            )
            events.append(event("response.output_item.done", output_index=index, item=item))
    final = dict(turn)
    if cut_to is not None and output and output[-1]["type"] == "function_call":
        cut = dict(output[-1])
        cut["arguments"] = cut["arguments"][:cut_to]
        cut["status"] = "incomplete"
        final["output"] = [*output[:-1], cut]
    kind = "response.incomplete" if final["status"] == "incomplete" else "response.completed"
    events.append(event(kind, response=final))
    return events
