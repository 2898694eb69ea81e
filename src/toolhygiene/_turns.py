"""Model turns in each API's JSON, for a ``ScriptedServer`` to play or for ``handle`` to
read as dicts: offline tests of a whole agent loop."""

from __future__ import annotations

import itertools
import json
from typing import Any

__all__ = ["TURNS", "anthropic_turn", "chat_turn", "model_turn", "responses_turn"]

ToolCall = tuple[str, dict[str, Any]]
"""(tool name, arguments)"""

_ids = itertools.count(1)


def anthropic_turn(calls: list[ToolCall], text: str = "") -> dict[str, Any]:
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
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def chat_turn(calls: list[ToolCall], text: str = "") -> dict[str, Any]:
    """An OpenAI ``ChatCompletion`` asking for ``calls``."""
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
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
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def responses_turn(calls: list[ToolCall], text: str = "") -> dict[str, Any]:
    """An OpenAI ``Response`` whose output asks for ``calls``."""
    output: list[dict[str, Any]] = []
    if text:
        output.append(
            {
                "type": "message",
                "id": f"msg_{next(_ids)}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
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
    return {
        "id": f"resp_{next(_ids)}",
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "model": "gpt-test",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


TURNS = {"anthropic": anthropic_turn, "openai_chat": chat_turn, "openai_responses": responses_turn}


def model_turn(fmt: str, calls: list[ToolCall], text: str = "") -> dict[str, Any]:
    """A model turn in the JSON of ``fmt`` (``anthropic``, ``openai_chat``,
    ``openai_responses``) calling ``calls`` with ids unique in the process."""
    return TURNS[fmt](calls, text)
