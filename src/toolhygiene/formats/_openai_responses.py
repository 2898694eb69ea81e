"""OpenAI Responses: ``function_call`` items in the output, one ``function_call_output``
item per ``call_id`` after them; a response that may continue one the server holds; a
stream of ``response.*`` events ending with the response."""

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
    as_dicts,
    content_text,
    field,
    unfinished,
    with_note,
)
from toolhygiene.formats._openai_chat import STRICT

__all__ = ["OpenAIResponses"]


_UNFINISHED = ("incomplete", "in_progress")
_TERMINAL = ("response.completed", "response.incomplete", "response.failed")
_CALL_ITEMS = ("function_call", "function_call_output")


def _id(value: Any) -> str | None:
    return str(value) if value else None


def _empty(item: Any) -> bool:
    """An assistant message with no content, or only blank text: the API rejects it."""
    if field(item, "type", "message") != "message" or field(item, "role") != "assistant":
        return False
    content = field(item, "content")
    if isinstance(content, str):
        return not content.strip()
    return not any(
        field(part, "type") not in ("output_text", "input_text")
        or str(field(part, "text") or "").strip()
        for part in content or ()
    )


class OpenAIResponses(CachesItself):
    name: Format = "openai_responses"
    strict_rules = STRICT
    holds_history = True
    final_method = "get_final_response"
    events_first = True

    def definition(self, tool: Definition) -> dict[str, Any]:
        # The Responses API makes a function strict unless told otherwise: always say.
        return {
            "type": "function",
            **tool.spelled("parameters"),
            "strict": tool.strict,
            **tool.taken("defer_loading"),
        }

    def assistant_items(self, response: Any) -> list[dict[str, Any]]:
        return [i for i in as_dicts(field(response, "output")) if not _empty(i)]

    def stop_state(self, response: Any) -> StopState:
        status = field(response, "status")
        if status not in (None, "completed", "incomplete"):
            raise UsageError(
                f"the response is {status}: it holds no finished turn; pass the completed "
                "response (for a background one, poll it until it completes)"
            )
        if status == "incomplete":
            reason = field(field(response, "incomplete_details"), "reason")
            return "refused" if reason == "content_filter" else "truncated"
        output = field(response, "output") or ()
        if any(
            field(i, "type") == "function_call" and field(i, "status") in _UNFINISHED
            for i in output
        ):
            return "truncated"
        if any(
            field(part, "type") == "refusal"
            for i in output
            if field(i, "type") == "message"
            for part in field(i, "content") or ()
        ):
            return "refused"
        return "finished"

    def position(self, messages: Sequence[Any], call_id: str) -> int | None:
        for at in range(len(messages) - 1, -1, -1):
            item = messages[at]
            if field(item, "type") == "function_call" and field(item, "call_id") == call_id:
                return at
        return None

    def calls(self, items: Sequence[Mapping[str, Any]]) -> list[Call]:
        return [
            Call(str(i["call_id"]), str(i["name"]), i.get("arguments") or "{}")
            for i in items
            if i.get("type") == "function_call"
        ]

    def said_more(self, items: Sequence[Mapping[str, Any]]) -> bool:
        return any(i.get("type") != "function_call" for i in items)

    def result_items(
        self,
        results: Sequence[tuple[Call, str, bool]],
        note: str | None,
        recovered: Collection[str] = (),
    ) -> list[dict[str, Any]]:
        return [
            {"type": "function_call_output", "call_id": call.id, "output": text}
            for call, text, _ in with_note(results, note, recovered)
        ]

    def _span(self, messages: Messages, round_: Round) -> list[int]:
        ids = set(round_.ids)
        found: list[int] = []
        for at in range(len(messages) - 1, -1, -1):
            kind = field(messages[at], "type")
            if kind in _CALL_ITEMS and field(messages[at], "call_id") in ids:
                found.append(at)
            if kind == "function_call" and field(messages[at], "call_id") == round_.ids[0]:
                break
        return sorted(found)

    def remove(self, messages: Messages, round_: Round) -> bool:
        span = self._span(messages, round_)
        if len(span) != 2 * len(round_.ids) or span != list(range(span[0], span[0] + len(span))):
            return False
        del messages[span[0] : span[-1] + 1]
        return True

    def stub(self, messages: Messages, round_: Round) -> None:
        for at in self._span(messages, round_):
            item = messages[at]
            if (
                isinstance(item, dict)
                and item.get("type") == "function_call_output"
                and item.get("call_id") in round_.failed
            ):
                item["output"] = STUB

    def check(self, messages: Sequence[Any]) -> None:
        calls: dict[str, int] = {}
        answered: set[str] = set()
        for at, item in enumerate(messages):
            kind = field(item, "type")
            call_id = field(item, "call_id")
            if _empty(item):
                raise UsageError(f"item {at}: message with no content")
            if kind == "function_call":
                if call_id in calls:
                    raise UsageError(f"item {at}: call_id {call_id!r} is used twice")
                calls[call_id] = at
            elif kind == "function_call_output":
                if call_id not in calls or call_id in answered:
                    raise UsageError(f"item {at}: output {call_id!r} has no open call")
                answered.add(call_id)
        missing = sorted(set(calls) - answered)
        if missing:
            raise UsageError(f"calls without outputs: {missing}")

    def shows(self, message: Any) -> bool:
        return field(message, "type") in _CALL_ITEMS

    def exchanges(self, items: list[dict[str, Any]]) -> Iterator[Exchange]:
        turn: list[dict[str, Any]] = []
        start = 0
        results: dict[str, tuple[str, bool | None]] = {}
        for at, item in enumerate([*items, {"role": "user"}]):  # a sentinel closes the last turn
            kind = item.get("type", "message")
            if kind == "function_call_output":
                results[str(item.get("call_id"))] = (content_text(item.get("output")), None)
                continue
            if results or (kind == "message" and item.get("role") != "assistant"):
                if any(i.get("type") == "function_call" for i in turn):
                    yield Exchange(start, turn, results)
                turn, results = [], {}
            if kind != "message" or item.get("role") == "assistant":
                if not turn:
                    start = at
                turn.append(item)

    def results_in(self, message: Any) -> list[str]:
        if field(message, "type") == "function_call_output":
            return [str(field(message, "call_id"))]
        return []

    def chain(self, response: Any) -> tuple[str | None, str | None]:
        conversation = field(response, "conversation")
        conv_id = conversation if isinstance(conversation, str) else field(conversation, "id")
        return _id(field(response, "previous_response_id")), _id(conv_id)

    def stored_items(self, items: Sequence[Any], call_ids: Collection[str]) -> list[str]:
        return [
            str(field(i, "id"))
            for i in items
            if field(i, "type") in _CALL_ITEMS
            and field(i, "call_id") in call_ids
            and field(i, "id")
        ]

    def final_of_error(self, exc: Exception) -> Any:
        return None

    def streams(self, first: Mapping[str, Any]) -> bool:
        return str(first.get("type") or "").startswith("response.")

    def assemble(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        for event in reversed(events):
            if event.get("type") in _TERMINAL:
                response = event.get("response")
                if isinstance(response, dict):
                    return response
        raise unfinished("no response.completed event")
