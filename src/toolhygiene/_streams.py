"""What a streaming user has in hand, as the one finished response ``handle`` reads.

Accepted: the SDKs' stream helpers (Anthropic ``MessageStream``, OpenAI
``ChatCompletionStream`` and ``ResponseStream``, sync or async: their final object), a raw
``stream=True`` stream not yet read, or the events/chunks already read from one (a list).
Events are put together here in the API's JSON; a stream that ended before its turn did
(no stop reason, no finish reason, no terminal Responses event) is refused, so a cut turn
never runs.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterable, Mapping
from typing import Any

from toolhygiene._exceptions import UsageError
from toolhygiene.formats._base import as_dict

__all__ = ["asettle", "settle"]

_FINAL_METHODS = ("get_final_message", "get_final_completion", "get_final_response")
_TERMINAL = ("response.completed", "response.incomplete", "response.failed")


def _final_method(response: Any) -> Any:
    if isinstance(response, Mapping) or hasattr(response, "model_dump"):
        return None
    for name in _FINAL_METHODS:
        method = getattr(response, name, None)
        if callable(method):
            return method
    return None


def _completion_of(exc: Exception) -> Any:
    """The completion an OpenAI chat stream helper raises with on a cut or filtered turn
    (``LengthFinishReasonError``, ``ContentFilterFinishReasonError``)."""
    completion = getattr(exc, "completion", None)
    if completion is None:
        raise UsageError(
            f"the stream helper holds no finished turn ({exc}): its calls may be cut, so "
            "none runs. Pass the helper before reading it, or the events you read from it"
        ) from exc
    return completion


def _events_first(response: Any) -> bool:
    """A Responses stream helper: its events carry the final response even when the turn
    was cut (its ``get_final_response`` then raises)."""
    return callable(getattr(response, "get_final_response", None))


def _is_events(response: Any) -> bool:
    return (
        not isinstance(response, (Mapping, str, bytes))
        and not hasattr(response, "model_dump")
        and isinstance(response, Iterable)
    )


def settle(response: Any) -> Any:
    """The finished response in ``response``: itself, a stream helper's final object, or
    the events of a stream put together."""
    method = _final_method(response)
    if method is not None:
        if inspect.iscoroutinefunction(method):
            raise UsageError(
                f"a {type(response).__name__} is async: use `await session.ahandle(...)`"
            )
        if _events_first(response):
            events = list(response)
            if events:
                return assemble(events)
        try:
            return method()
        except Exception as exc:
            return _completion_of(exc)
    if hasattr(response, "__aiter__") and not hasattr(response, "__iter__"):
        raise UsageError(f"a {type(response).__name__} is async: use `await session.ahandle(...)`")
    if _is_events(response):
        return assemble(list(response))
    return response


async def asettle(response: Any) -> Any:
    """``settle`` for async streams and stream helpers."""
    method = _final_method(response)
    if method is not None:
        if _events_first(response) and hasattr(response, "__aiter__"):
            events = [event async for event in response]
            if events:
                return assemble(events)
        try:
            final = method()
            return await final if inspect.isawaitable(final) else final
        except Exception as exc:
            return _completion_of(exc)
    if hasattr(response, "__aiter__"):
        return assemble([event async for event in response])
    return settle(response)


def assemble(events: list[Any]) -> dict[str, Any]:
    """The response that the events of one streamed answer make, in the API's JSON."""
    if not events:
        raise UsageError(
            "the stream holds no events: it was read to the end already. Pass the events or "
            "chunks you collected while reading it, or the helper's final object"
        )
    dicts = [as_dict(e) for e in events]
    first = dicts[0]
    kind = str(first.get("type") or "")
    if first.get("object") == "chat.completion.chunk" or "choices" in first:
        return _chat(dicts)
    if kind.startswith("response."):
        return _responses(dicts)
    if kind in ("message_start", "content_block_start", "ping"):
        return _anthropic(dicts)
    raise UsageError(
        f"cannot tell what stream a list of {type(events[0]).__name__} is: pass the "
        "events of one streamed answer"
    )


def _unfinished(what: str) -> UsageError:
    return UsageError(
        f"the stream ended before the turn finished ({what}): its calls may be cut, so none "
        "runs. Read the stream to its end, or ask again"
    )


def _chat(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    choices: dict[int, dict[str, Any]] = {}
    for chunk in chunks:
        for part in chunk.get("choices") or ():
            choice = choices.setdefault(
                int(part.get("index") or 0),
                {"index": int(part.get("index") or 0), "message": {"role": "assistant"}},
            )
            message = choice["message"]
            delta = part.get("delta") or {}
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
            if part.get("finish_reason"):
                choice["finish_reason"] = part["finish_reason"]
    if not choices:
        raise _unfinished("no choice")
    for choice in choices.values():
        if not choice.get("finish_reason"):
            raise _unfinished("no finish_reason")
        choice["message"].setdefault("content", None)
    head = chunks[0]
    return {
        "id": head.get("id"),
        "object": "chat.completion",
        "created": head.get("created", 0),
        "model": head.get("model"),
        "choices": [choices[i] for i in sorted(choices)],
    }


def _responses(events: list[dict[str, Any]]) -> dict[str, Any]:
    for event in reversed(events):
        if event.get("type") in _TERMINAL:
            response = event.get("response")
            if isinstance(response, dict):
                return response
    raise _unfinished("no response.completed event")


def _anthropic(events: list[dict[str, Any]]) -> dict[str, Any]:
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
            block, delta = message["content"][at], event["delta"]
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
        elif kind == "message_delta":
            message.update(event.get("delta") or {})
            if event.get("usage"):
                message["usage"] = {**message.get("usage", {}), **event["usage"]}
    if message is None:
        raise _unfinished("no message_start")
    if not message.get("stop_reason"):
        raise _unfinished("no stop_reason")
    if not stopped:
        raise _unfinished("no message_stop")
    cut = message["stop_reason"] in ("max_tokens", "model_context_window_exceeded")
    for at, text in partial.items():
        message["content"][at]["input"] = _arguments(text, cut)
    return message


def _arguments(text: str, cut: bool) -> Any:
    """A streamed call's arguments; a cut turn's may not parse (it never runs)."""
    try:
        return json.loads(text) if text else {}
    except ValueError:
        if not cut:
            raise _unfinished("a call's arguments do not parse") from None
        return {}
