"""A LangGraph ``ToolNode`` whose tools run through toolhygiene.

LangGraph's ``ToolNode`` re-raises a tool's exception by default (since 1.0.1), or with
``handle_tool_errors=True`` answers ``"Error: {repr}\\n Please fix your mistakes."``. The
node built here runs each call through a Session and answers with a ``ToolMessage`` whose
content is the line and whose ``status`` is ``"error"``. Caps are per conversation: one
Session per LangGraph thread (``config["configurable"]["thread_id"]``).

Recovered errors are cleared from the graph's message state by the very code of
``Session.handle``: the state's messages are read as a Chat Completions list, the turn
goes through the Session's own round (running, clearing, the note), and what changed comes
back as LangGraph updates: ``RemoveMessage`` for a round removed whole, the same message
(same id) with the stub for a shrunk result, and the new ``ToolMessage``s.

::

    from toolhygiene.integrations.langgraph import tool_node

    node = tool_node(lambda thread: th.Session([get_weather]))   # a Session per thread
    graph.add_node("tools", node)
    model = chat_model.bind_tools(list(node.tools_by_name.values()))
"""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, RemoveMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.prebuilt import ToolNode

from toolhygiene import _loop as loop
from toolhygiene import _surface
from toolhygiene import _words as words
from toolhygiene._definitions import shown_text
from toolhygiene._exceptions import UsageError
from toolhygiene._session import Outcome, Session
from toolhygiene.formats import STUB

__all__ = ["HygieneToolNode", "MAX_THREADS", "tool_node"]

Sessions = Session | Callable[[Any], Session]
"""One Session (one conversation), or a function making the Session of a thread id."""

MAX_THREADS = 1024
"""How many threads' Sessions a node keeps by default; the least recently used beyond it
is closed and forgotten (that thread, back later, gets a new Session taken up from the
graph's messages with ``Session.resume``: closed tools and counts are what they prove)."""


def _key(thread: Any) -> tuple[type, Any] | None:
    """Threads keyed by type and value: ``1`` and ``"1"`` are two threads."""
    return None if thread is None else (type(thread), thread)


class HygieneToolNode(ToolNode):
    """A ``ToolNode`` that runs every call through the Session of the graph's thread."""

    def __init__(
        self,
        sessions: Sessions,
        *,
        name: str = "tools",
        messages_key: str = "messages",
        max_threads: int = MAX_THREADS,
    ) -> None:
        if max_threads < 1:
            raise UsageError(f"max_threads must be at least 1, not {max_threads!r}")
        self._make = sessions if not isinstance(sessions, Session) else None
        self._sessions: OrderedDict[tuple[type, Any] | None, Session] = OrderedDict()
        self._max_threads = max_threads
        self._lock = threading.Lock()
        self._turns = _Turns(max_threads)
        if isinstance(sessions, Session):
            self._only: Session | None = sessions
            template = sessions
        else:
            self._only = None
            assert self._make is not None
            template = self._make(None)  # the tools' definitions, and their direct calls
        super().__init__(_tools(template), name=name, messages_key=messages_key)

    def _session(self, thread: Any, chat: list[dict[str, Any]] | None = None) -> Session:
        """The thread's Session; one made anew (first use, or back after eviction) is
        taken up from ``chat``, the graph's messages, when the round gives them."""
        key = _key(thread)
        with self._lock:
            if self._only is not None:
                bound = self._sessions.setdefault(key, self._only)
                if len(self._sessions) > 1:
                    del self._sessions[key]
                    raise UsageError(
                        "this tool node's Session serves one conversation and the graph ran "
                        f"another thread ({thread!r}): pass tool_node(lambda thread: "
                        "th.Session(...)) to have one Session per thread"
                    )
                return bound
            found = self._sessions.get(key)
            if found is None:
                assert self._make is not None
                found = self._make(thread)
                if chat:
                    found.resume(chat, format="openai_chat")
                self._sessions[key] = found
                while len(self._sessions) > self._max_threads:
                    _, evicted = self._sessions.popitem(last=False)
                    evicted.close()
            self._sessions.move_to_end(key)
            return found

    def session_of(self, thread: Any) -> Session:
        """The Session of the LangGraph thread ``thread`` (made on first use).

        Raises:
            UsageError: ``thread`` is ``None`` and the node makes a Session per thread: a
                run without ``thread_id`` gets a new Session for each round, taken up
                from the graph's messages, which no one holds after the round.
        """
        if thread is None and self._only is None:
            raise UsageError(
                "a run without thread_id has no Session of its own: each of its rounds "
                "gets a new Session taken up from the graph's messages (Session.resume); "
                "give the run a thread_id to have one"
            )
        return self._session(thread)

    def release(self, thread: Any) -> bool:
        """Close and forget the Session of ``thread`` (its conversation is over); ``False``
        if the node held none. A Session given alone is not closed, only unbound (it still
        holds its conversation: ``session.reset()`` before another)."""
        with self._lock:
            found = self._sessions.pop(_key(thread), None)
        if found is None:
            return False
        if found is not self._only:
            found.close()
        return True

    def _func(self, input: Any, config: RunnableConfig, runtime: Any) -> Any:  # noqa: A002
        thread, read = _thread(config), self._round(input)
        if read.cut:
            return self._answer(input, read.not_run())
        if read.sent is None:
            session = self._serving(thread, read)
            return self._answer(input, read.updates(session._handle_turn(read.turn, read.chat)))
        shared, first = self._turns.join(_key(thread), read)
        if first:
            done: tuple[list[Any], list[ToolMessage]] | None = None
            try:
                session = self._serving(thread, read)
                done = read.parts(session._handle_turn(read.turn, read.chat))
            finally:  # the other Sends of the turn wait for this, however it ends
                shared.settle(done)
        else:
            shared.wait()
        return self._answer(input, shared.take(read.sent, first))

    async def _afunc(self, input: Any, config: RunnableConfig, runtime: Any) -> Any:  # noqa: A002
        thread, read = _thread(config), self._round(input)
        if read.cut:
            return self._answer(input, read.not_run())
        if read.sent is None:
            session = self._serving(thread, read)
            outcomes = await session._ahandle_turn(read.turn, read.chat)
            return self._answer(input, read.updates(outcomes))
        shared, first = self._turns.join(_key(thread), read)
        if first:
            done: tuple[list[Any], list[ToolMessage]] | None = None
            try:
                session = self._serving(thread, read)
                done = read.parts(await session._ahandle_turn(read.turn, read.chat))
            finally:
                shared.settle(done)
        else:
            await shared.await_done()
        return self._answer(input, shared.take(read.sent, first))

    def _serving(self, thread: Any, read: _Round) -> Session:
        """The Session that runs this round: the thread's, or, for a run without
        ``thread_id`` when the node makes a Session per thread, a new one taken up from
        the graph's messages (two runs never share caps; a run that passes its whole
        history back keeps them)."""
        if thread is not None or self._only is not None:
            return self._session(thread, read.chat if self._only is None else None)
        assert self._make is not None
        return self._make(None).resume(read.chat, format="openai_chat")

    def _round(self, given: Any) -> _Round:
        """The round of every input form ``ToolNode`` takes (its ``_parse_input``): the
        messages (a list, or state with ``messages``), a ``Send``'s single call with the
        state (``create_react_agent(version="v2")``), or a bare list of tool calls."""
        if isinstance(given, dict) and given.get("__type") == "tool_call_with_context":
            call = given["tool_call"]
            history = list(self._messages(given.get("state") or {}))
            return _Round(_up_to_call(history, call), sent=call.get("id"))
        if (
            isinstance(given, list)
            and given
            and isinstance(given[-1], dict)
            and (given[-1].get("type") == "tool_call")
        ):
            return _Round([AIMessage(content="", tool_calls=list(given))])
        return _Round(list(self._messages(given)))

    def _messages(self, given: Any) -> Sequence[Any]:
        if isinstance(given, list):
            return given
        if isinstance(given, dict):
            return list(given.get(self._messages_key, []))
        return list(getattr(given, self._messages_key, []))

    def _answer(self, given: Any, updates: list[Any]) -> Any:
        plain = isinstance(given, list) and not (given and isinstance(given[-1], dict))
        return updates if plain else {self._messages_key: updates}


def _thread(config: RunnableConfig) -> Any:
    return (config.get("configurable") or {}).get("thread_id")


def _up_to_call(history: list[Any], call: dict[str, Any]) -> list[Any]:
    """The messages up to the AIMessage that asked for ``call``: the turn a ``Send`` of
    one of its calls belongs to."""
    for at in range(len(history) - 1, -1, -1):
        message = history[at]
        if isinstance(message, AIMessage) and any(
            c.get("id") == call.get("id") for c in message.tool_calls
        ):
            return history[: at + 1]
    return [*history, AIMessage(content="", tool_calls=[call])]


class _Shared:
    """One turn whose calls a graph sends one by one (``Send``): the first of its Sends
    runs the whole turn, as one turn (caps, clearing, the note: as ``Session.handle``);
    each Send answers its own call."""

    def __init__(
        self, calls: list[str], forget: Callable[[], None], unsent: frozenset[str] = frozenset()
    ) -> None:
        self._forget = forget
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self._updates: tuple[list[Any], list[ToolMessage]] | None = None
        self.left = set(calls)
        self.unsent = unsent  # the turn's invalid calls, never sent

    def settle(self, updates: tuple[list[Any], list[ToolMessage]] | None) -> None:
        """The turn's updates (``None``: running it failed, and that Send raised)."""
        with self._lock:
            self._updates = updates
            self._done.set()
            waiters, self._waiters = self._waiters, []
        for running, future in waiters:
            running.call_soon_threadsafe(_resolve, future)

    def wait(self) -> None:
        self._done.wait()

    async def await_done(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._done.is_set():
                return
            future: asyncio.Future[None] = loop.create_future()
            self._waiters.append((loop, future))
        await future

    def take(self, call_id: str | None, first: bool) -> list[Any]:
        """The ``ToolMessage`` of ``call_id``, and, for the Send that ran the turn, the
        updates of the state the turn made (removed rounds, shrunk results)."""
        with self._lock:
            updates = self._updates
            self.left.discard(str(call_id))
            finished = not self.left
        if finished:
            self._forget()
        if updates is None:
            raise RuntimeError("another Send of this turn ran the turn and failed (its error)")
        # The changes to earlier messages are returned once, by the Send that ran the turn.
        changes, results = updates
        # LangGraph sends no call of invalid_tool_calls: the Send that ran the turn answers them.
        mine = [
            u
            for u in results
            if u.tool_call_id == call_id or (first and u.tool_call_id in self.unsent)
        ]
        return [*changes, *mine] if first else mine


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class _Turns:
    """The turns being sent one call at a time, by thread: a turn is run once, by its
    first Send, and forgotten once every call of it was answered. At most ``limit`` are
    kept (a graph that sends only some of a turn's calls leaves it unfinished)."""

    def __init__(self, limit: int) -> None:
        self._lock = threading.Lock()
        self._limit = limit
        self._turns: OrderedDict[tuple[Any, ...], _Shared] = OrderedDict()

    def join(self, thread: tuple[type, Any] | None, read: _Round) -> tuple[_Shared, bool]:
        """The turn of this Send, and whether this Send is the first (it runs the turn)."""
        calls = [str(c.get("id")) for c in read.ai.tool_calls]
        key = (thread, read.ai.id, tuple(calls))
        with self._lock:
            found = self._turns.get(key)
            if found is not None:
                return found, False
            unsent = frozenset(str(c.get("id")) for c in _invalid(read.ai))
            shared = self._turns[key] = _Shared(calls, lambda: self._forget(key), unsent)
            while len(self._turns) > self._limit:
                self._turns.popitem(last=False)
            return shared, True

    def _forget(self, key: tuple[Any, ...]) -> None:
        with self._lock:
            self._turns.pop(key, None)


class _Round:
    """The graph's messages as the Chat Completions list ``Session.handle`` works on, and
    what the Session's round changed, as LangGraph updates."""

    def __init__(self, messages: list[Any], sent: str | None = None) -> None:
        self.sent = sent  # the call a Send carries (its turn is the AIMessage's calls)
        if not messages or not isinstance(messages[-1], AIMessage):
            raise UsageError("the tool node runs the calls of an AIMessage last in the messages")
        self.ai: AIMessage = messages[-1]
        self.cut = _cut(self.ai)
        self.pairs = [(m, _as_chat(m)) for m in messages[:-1]]
        self.chat = [entry for _, entry in self.pairs]
        completion = {
            "id": self.ai.id or "langgraph",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": _as_chat(self.ai), "finish_reason": "tool_calls"}],
        }
        self.turn = loop.read(completion, "openai_chat")

    def not_run(self) -> list[ToolMessage]:
        """The answer to every call of a turn the token limit cut off (or, for a ``Send``,
        to its own call): none ran, none counted (``Session.handle`` runs none either), and
        each is told so; the cut calls LangChain could not parse are answered too, since
        the provider wants a result for every call id it was sent (no ``Send`` carries
        those: the ``Send`` of the turn's first call answers them)."""
        first = self.ai.tool_calls[0].get("id") if self.ai.tool_calls else None
        calls = [*self.ai.tool_calls, *self.ai.invalid_tool_calls]
        unsent = {str(c.get("id")) for c in self.ai.invalid_tool_calls}
        return [
            ToolMessage(
                content=words.cut_turn_line(str(call.get("name") or "tool")),
                tool_call_id=str(call.get("id")),
                name=call.get("name"),
                status="error",
                id=str(uuid.uuid4()),
            )
            for call in calls
            if self.sent is None
            or call.get("id") == self.sent
            or (self.sent == first and str(call.get("id")) in unsent)
        ]

    def updates(self, outcomes: Sequence[Outcome]) -> list[Any]:
        """Removed rounds as ``RemoveMessage``, shrunk results as the same message (same id)
        with the new content, then a ``ToolMessage`` for each call."""
        changes, results = self.parts(outcomes)
        return [*changes, *results]

    def parts(self, outcomes: Sequence[Outcome]) -> tuple[list[Any], list[ToolMessage]]:
        """``updates`` in two: the changes to earlier messages, and the turn's results."""
        kept = {id(entry) for entry in self.chat}
        out: list[Any] = []
        for message, entry in self.pairs:
            if id(entry) not in kept:
                if message.id is not None:
                    out.append(RemoveMessage(id=message.id))
            elif entry["content"] != _as_chat(message)["content"]:
                out.append(message.model_copy(update=_shrunk(entry)))
        results = self.chat[len(self.chat) - len(outcomes) :] if outcomes else []
        names = {c["id"]: c["name"] for c in [*self.ai.tool_calls, *_invalid(self.ai)]}
        messages = [
            ToolMessage(
                content=item["content"],
                tool_call_id=item["tool_call_id"],
                name=names.get(item["tool_call_id"]),
                status="success" if outcome.ok else "error",
                id=str(uuid.uuid4()),
            )
            for item, outcome in zip(results, outcomes, strict=True)
        ]
        return out, messages


_CUT_FINISH = frozenset({"length", "max_tokens", "MAX_TOKENS"})
_CUT_STOP = frozenset({"max_tokens", "model_context_window_exceeded"})


def _cut(message: AIMessage) -> bool:
    """Whether the token limit cut the turn off, from its ``response_metadata``:
    ``finish_reason`` ``"length"`` (OpenAI; ``"MAX_TOKENS"``, Google), ``stop_reason``
    ``"max_tokens"`` (Anthropic), or an ``"incomplete"`` Responses API turn. LangChain
    repairs cut JSON arguments into calls that look whole, so the reason is what tells."""
    meta = message.response_metadata or {}
    return (
        meta.get("finish_reason") in _CUT_FINISH
        or meta.get("stop_reason") in _CUT_STOP
        or meta.get("status") == "incomplete"
    )


def _shrunk(entry: dict[str, Any]) -> dict[str, Any]:
    """The update for a result the Session's clearing shrank: its new content, and, for
    the stub, no error status (``Session.handle``'s stub drops the error marker: a
    cleared result is not an error)."""
    update: dict[str, Any] = {"content": entry["content"]}
    if entry["content"] == STUB:
        update["status"] = "success"
    return update


_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def _as_chat(message: Any) -> dict[str, Any]:
    """One LangChain message as the Chat Completions item the formats read."""
    role = _ROLES.get(getattr(message, "type", ""), "user")
    content = message.content
    if not isinstance(content, str):  # content blocks: their text, what said_more reads
        content = "".join(b if isinstance(b, str) else str(b.get("text", "")) for b in content)
    item: dict[str, Any] = {"role": role, "content": content}
    if role == "tool":
        item["tool_call_id"] = message.tool_call_id
    if role == "assistant" and (message.tool_calls or _invalid(message)):
        item["tool_calls"] = [
            {
                "id": call["id"],
                "type": "function",
                "function": {"name": call["name"], "arguments": json.dumps(call["args"])},
            }
            for call in message.tool_calls
        ] + [
            {
                "id": str(call.get("id")),
                "type": "function",
                "function": {"name": call.get("name") or "", "arguments": call.get("args") or ""},
            }
            for call in _invalid(message)
        ]
    return item


def _invalid(message: Any) -> list[Any]:
    """The calls LangChain could not parse (``invalid_tool_calls``: malformed argument
    JSON) that carry an id: they are calls the provider wants a result for, and the
    Session answers them as it answers malformed arguments (the line, counted)."""
    return [c for c in getattr(message, "invalid_tool_calls", None) or [] if c.get("id")]


def _tools(session: Session) -> list[BaseTool]:
    """The Session's tools as LangChain tools, for ``bind_tools`` (their definitions are
    the Session's); called directly, they run through the Session too."""
    out: list[BaseTool] = []
    for name, tool in session.tools.items():
        parameters = tool.parameters_for("openai_chat")
        out.append(
            StructuredTool(
                name=name,
                description=shown_text(tool.description),
                args_schema=parameters,
                func=_direct(session, name),
                coroutine=_adirect(session, name),
            )
        )
    return out


def _direct(session: Session, name: str) -> Callable[..., str]:
    def run(**arguments: Any) -> str:
        return session.call(name, arguments).content

    return run


def _adirect(session: Session, name: str) -> Callable[..., Any]:
    async def run(**arguments: Any) -> str:
        return (await session.acall(name, arguments)).content

    return run


def tool_node(
    sessions: Sessions, *, name: str = "tools", max_threads: int = MAX_THREADS
) -> HygieneToolNode:
    """A ``ToolNode`` running every call through toolhygiene.

    Args:
        sessions: a Session (the node then serves one conversation, one thread), or a
            function making the Session of a LangGraph thread id (caps per thread).
        name: the node's name in the graph.
        max_threads: how many threads' Sessions the node keeps; the least recently used
            beyond it is closed and forgotten (``release(thread)`` does it at once).

    A run without ``thread_id`` is the thread ``None``: every such run is one conversation
    (one Session, one set of caps) until ``release(None)``. Give each conversation its
    own ``thread_id``. Thread ids are keyed by type and value (``1`` is not ``"1"``).
    """
    return HygieneToolNode(sessions, name=name, max_threads=max_threads)


__dir__ = _surface.public_dir(__name__)
"""``__all__`` and the dunders: the names imported to build this module stay usable
here but are not its surface (``dir()``, completion)."""
