"""A scripted server that holds conversations the way the APIs do, for the tests of
``history="server"``: OpenAI Responses chains (``previous_response_id``), OpenAI
conversations (``conversation=``, with items listed and deleted) and Anthropic message
threads (beta ``message-threads-2026-08-12``).

What it rejects, as the APIs do, with their status codes: an input item whose id the
server already holds (400 "Duplicate item found with id ..."), a history that does not
pair every call with exactly one result once the new items are added (400), a continue
from a response that was already continued (400 ``thread_already_continued``) or that it
does not hold (404), ``system``/``tools`` on a thread continue (400), a thread request
without the beta. The model's turns still come from ``push``; the server adds them to what
it holds. A test helper (not public API): the state it keeps is what the tests assert on.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from toolhygiene import UsageError

# Private imports, by design (internal units under test): the stream assembler handle() uses, to answer as the SDK would have read the stream.
from toolhygiene._streams import assemble
from toolhygiene.formats import check
from toolhygiene.testing import Reply, ScriptedServer, Seen

THREADS_BETA = "message-threads-2026-08-12"


def _openai_error(status: int, message: str) -> Reply:
    return Reply(status, {"error": {"message": message, "type": "invalid_request_error",
                                    "param": "input", "code": None}})


def _anthropic_error(status: int, message: str, code: str | None = None) -> Reply:
    kind = "not_found_error" if status == 404 else "invalid_request_error"
    error: dict[str, Any] = {"type": kind, "message": message}
    if code:
        error["details"] = {"error_code": code}
    return Reply(status, {"type": "error", "error": error})


def _as_items(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    return [dict(i) for i in value or ()]


class HoldingServer(ScriptedServer):
    """``ScriptedServer`` that keeps what the real APIs keep between requests."""

    def __init__(self) -> None:
        self.responses: dict[str, list[dict[str, Any]]] = {}
        self.conversations: dict[str, list[dict[str, Any]]] = {}
        self.threads: dict[str, list[dict[str, Any]]] = {}
        self.continued: set[str] = set()
        self.rejected: list[Reply] = []
        self._numbers = itertools.count(1)
        super().__init__()

    def _take(self, seen: Seen) -> Reply:
        with self._lock:
            self.requests.append(seen)
            path = seen.path.split("?")[0]
            if seen.method == "POST" and path == "/v1/responses":
                reply = self._responses(seen.body)
            elif path == "/v1/conversations" and seen.method == "POST":
                reply = self._new_conversation(seen.body)
            elif path.startswith("/v1/conversations/") and "/items" in path:
                reply = self._items(seen.method, path)
            elif seen.method == "POST" and path == "/v1/messages":
                reply = self._messages(seen)
            else:
                reply = self.replies.popleft() if self.replies else self.default
            if reply.status >= 400:
                self.rejected.append(reply)
            return reply

    def _next(self) -> Reply:
        return copy.deepcopy(self.replies.popleft()) if self.replies else self.default

    # -- OpenAI Responses -------------------------------------------------------------

    def _responses(self, body: dict[str, Any]) -> Reply:
        previous = body.get("previous_response_id")
        conversation = body.get("conversation")
        if isinstance(conversation, dict):
            conversation = conversation.get("id")
        if previous and conversation:
            return _openai_error(400, "previous_response_id and conversation cannot be used "
                                      "together.")
        if previous and previous not in self.responses:
            return _openai_error(404, f"Previous response with id '{previous}' not found.")
        if conversation and conversation not in self.conversations:
            return _openai_error(404, f"Conversation with id '{conversation}' not found.")
        base = (self.responses[previous] if previous
                else self.conversations[conversation] if conversation else [])
        new = _as_items(body.get("input"))
        held = {i.get("id") for i in base if i.get("id")}
        for item in new:
            if item.get("id") in held:
                return _openai_error(400, f"Duplicate item found with id {item['id']}.")
        try:
            check([*base, *new], "openai_responses")
        except UsageError as exc:
            return _openai_error(400, str(exc))
        reply = self._next()
        if reply.status != 200 or not isinstance(reply.body, dict):
            return reply
        output = reply.body.get("output") or []
        reply.body["previous_response_id"] = previous
        reply.body["conversation"] = {"id": conversation} if conversation else None
        history = [*copy.deepcopy(base), *self._with_ids(new), *copy.deepcopy(output)]
        self.responses[reply.body["id"]] = history
        if conversation:
            self.conversations[conversation] = history
        return reply

    def _with_ids(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for item in copy.deepcopy(items):
            item.setdefault("id", f"item_{next(self._numbers)}")
            item.setdefault("type", "message")
            out.append(item)
        return out

    def _new_conversation(self, body: Any) -> Reply:
        cid = f"conv_{next(self._numbers)}"
        self.conversations[cid] = self._with_ids(_as_items((body or {}).get("items")))
        return Reply(200, {"id": cid, "object": "conversation", "created_at": 0,
                           "metadata": {}})

    def _items(self, method: str, path: str) -> Reply:
        parts = path.split("/")  # /v1/conversations/{cid}/items[/{item}]
        cid = parts[3]
        if cid not in self.conversations:
            return _openai_error(404, f"Conversation with id '{cid}' not found.")
        items = self.conversations[cid]
        if method == "GET":
            return Reply(200, {"object": "list", "data": copy.deepcopy(items),
                               "first_id": items[0]["id"] if items else None,
                               "last_id": items[-1]["id"] if items else None,
                               "has_more": False})
        if method == "DELETE" and len(parts) == 6:
            kept = [i for i in items if i.get("id") != parts[5]]
            if len(kept) == len(items):
                return _openai_error(404, f"Item with id '{parts[5]}' not found.")
            self.conversations[cid] = kept
            return Reply(200, {"id": cid, "object": "conversation", "created_at": 0,
                               "metadata": {}})
        return _openai_error(400, "unsupported")

    # -- Anthropic message threads ----------------------------------------------------

    def _messages(self, seen: Seen) -> Reply:
        body = seen.body
        thread = body.get("thread")
        if thread is None:
            return self._next()
        betas = seen.headers.get("anthropic-beta", "") or seen.headers.get("Anthropic-Beta", "")
        if THREADS_BETA not in betas:
            return _anthropic_error(400, "thread requires the message-threads beta")
        base: list[dict[str, Any]] = []
        previous = None
        if thread.get("type") == "continue":
            previous = thread.get("previous_message_id")
            if previous not in self.threads:
                return _anthropic_error(404, f"no thread state for {previous}",
                                        "thread_not_found")
            if previous in self.continued:
                return _anthropic_error(400, f"{previous} has already been continued",
                                        "thread_already_continued")
            if "system" in body or "tools" in body:
                return _anthropic_error(400, "system and tools are taken from the thread on "
                                             "continue")
            base = self.threads[previous]
        new = [dict(m) for m in body.get("messages") or ()]
        try:
            check([*base, *new], "anthropic") if new or not base else None
        except UsageError as exc:
            return _anthropic_error(400, str(exc))
        reply = self._next()
        message = (reply.body if reply.events is None
                   else assemble([data for _, data in reply.events]))
        if reply.status != 200 or not isinstance(message, dict):
            return reply
        if previous is not None:
            self.continued.add(previous)
        turn = {"role": "assistant", "content": copy.deepcopy(message["content"])}
        self.threads[message["id"]] = [*copy.deepcopy(base), *copy.deepcopy(new), turn]
        return reply

    def held_thread(self, message_id: str) -> list[dict[str, Any]]:
        """The history the server holds under a thread's message id."""
        return self.threads[message_id]
