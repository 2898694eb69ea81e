"""One round of a hand-rolled agent loop: read the model's turn, decide whether its calls
may run, append the turn and the results to the message list, clear errors the agent
recovered from.

``Session.handle`` and ``Session.ahandle`` are thin shells over ``read``, ``Conversation``
and ``finish``; only the running of the calls differs (threads or ``asyncio.gather``).
Nothing is appended until every call has its result, so a list is never left with a call
and no result. Where the server holds the conversation (``history="server"``), only what
the next request must send is appended (``_history``).
"""

from __future__ import annotations

import copy
import enum
import threading
from collections import Counter
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolhygiene import _observe, _streams, _words, formats
from toolhygiene._exceptions import UsageError
from toolhygiene._history import Chain, ServerHistory, answered, chain_of
from toolhygiene._text import size_of, valid_data
from toolhygiene.formats import Adapter, Call
from toolhygiene.formats._base import Messages

if TYPE_CHECKING:
    from toolhygiene._call import Outcome
    from toolhygiene._transcript import Transcript

__all__ = ["Conversation", "Step", "Turn", "aread", "finish", "read"]


class Step(str, enum.Enum):
    """What ``Session.handle`` did with a model turn, and whether the loop goes on.

    A ``Step`` is true when the loop should call the model again (``TOOLS``, ``PAUSED``)
    and false when it should stop (``DONE``, ``REFUSED``, ``TRUNCATED``), so
    ``while session.handle(response, messages)`` keeps working.
    """

    TOOLS = "tools"
    """The model asked for tools; they ran, and the turn and every result were appended."""
    PAUSED = "paused"
    """The API paused a long turn (Anthropic ``pause_turn``): the turn was appended as it
    is and nothing ran; send the list again to let the model continue."""
    DONE = "done"
    """The model finished its turn without calling tools; its turn was appended (unless
    it was empty)."""
    REFUSED = "refused"
    """The model refused (Anthropic ``refusal``, OpenAI ``content_filter`` or a refusal
    part): nothing ran; the turn was appended only if it held text and no calls."""
    TRUNCATED = "truncated"
    """The turn was cut by the token limit (Anthropic ``max_tokens``, OpenAI ``length``,
    Responses ``incomplete``): its calls may have cut arguments, so none ran, none
    counted, and nothing was appended. Ask again with a larger token limit."""

    def __bool__(self) -> bool:
        return self in (Step.TOOLS, Step.PAUSED)


@dataclass(frozen=True, slots=True)
class Turn:
    """The model's turn: the items to append, the calls in it, what to do with it."""

    adapter: Adapter
    items: list[dict[str, Any]]
    calls: list[Call]
    step: Step
    chain: Chain


def read(response: Any, fmt: str | None) -> Turn:
    """The model's turn in ``response`` (or in a stream of it), with what ``handle`` may
    do with it."""
    return _turn(_streams.settle(response), fmt)


async def aread(response: Any, fmt: str | None) -> Turn:
    """``read`` for async streams and stream helpers too."""
    return _turn(await _streams.asettle(response), fmt)


def _turn(response: Any, fmt: str | None) -> Turn:
    adapter = formats.adapter(fmt or formats.detect(response))
    if fmt is not None:
        seen = formats.detect(response, None)
        if seen is not None and seen != fmt:
            raise UsageError(f"format={fmt!r} was given for a response that is {seen}")
    items = valid_data(adapter.assistant_items(response))  # the next request must encode
    calls = adapter.calls(items)
    state = adapter.stop_state(response)
    step = (Step.TOOLS if calls else Step.DONE) if state == "finished" else Step(state)
    if step is Step.TRUNCATED or (step is Step.REFUSED and calls):
        items, calls = [], []
    elif step is not Step.TOOLS:
        calls = []
    return Turn(adapter, items, calls, step, chain_of(adapter.name, response))


class Conversation:
    """The one message list a Session serves: its format and its latest calls.

    A Session that served one conversation refuses another one's list (it would carry
    the first one's closed tools and pending errors into it), and refuses everything
    once closed.
    """

    def __init__(self, server: ServerHistory) -> None:
        self.format: str | None = None
        self.last_call: str | None = None
        self.closed = False
        self.server = server
        self._lock = threading.Lock()

    def check(self, turn: Turn, messages: Messages, mirror: Messages | None = None) -> None:
        """Raise ``UsageError`` if ``messages`` is not this Session's conversation (or a
        ``mirror`` is given where the list itself is the whole conversation)."""
        if not isinstance(messages, MutableSequence):
            raise UsageError(
                f"messages must be the conversation's list, got a {type(messages).__name__}"
            )
        if mirror is not None and self.server.mode == "client":
            raise UsageError(
                "mirror= is for history='server': in client mode the list itself is the "
                "whole conversation"
            )
        if mirror is not None and not isinstance(mirror, MutableSequence):
            raise UsageError(f"mirror must be a list, got a {type(mirror).__name__}")
        with self._lock:
            if self.closed:
                raise UsageError(
                    "this Session is closed: make a new Session for a new conversation"
                )
            fmt, last = self.format, self.last_call
        if fmt is not None and fmt != turn.adapter.name:
            raise UsageError(
                f"this Session serves an {fmt} conversation, and this response is "
                f"{turn.adapter.name}: one Session per conversation"
            )
        self.server.check(turn.adapter.name, turn.chain)
        if self.server.mode == "server":
            calls = [c.id for c in turn.calls] + ([last] if last is not None else [])
            held = next((c for c in calls if turn.adapter.position(messages, c) is not None), None)
            if held is not None:
                raise UsageError(
                    f"the list holds the model's call {held!r}, which the server already "
                    "holds: in history='server' pass a new list for each request (only the "
                    "tool outputs go in it), or the API rejects the duplicate"
                )
            if last is not None and last in answered(messages):
                raise UsageError(
                    f"the list still holds the output of call {last!r}, which was sent "
                    "already and the server holds: in history='server' pass a new list for "
                    "each request, or the API rejects the duplicate"
                )
            return
        if last is not None and turn.adapter.position(messages, last) is None:
            raise UsageError(
                f"the message list does not hold this Session's latest tool call {last!r}: "
                "it belongs to another conversation. Make one Session per conversation, "
                "or call session.reset() before reusing it for a new one"
            )

    def resumed(self, fmt: str | None, last_call: str | None) -> None:
        """Take the format and the latest call of a list read back by ``Session.resume``."""
        with self._lock:
            self.format, self.last_call = fmt, last_call

    def served(self, turn: Turn) -> None:
        """Remember the turn just appended."""
        with self._lock:
            self.format = turn.adapter.name
            if turn.calls:
                self.last_call = turn.calls[-1].id


def finish(
    turn: Turn,
    outcomes: Sequence[Outcome],
    messages: Messages,
    transcript: Transcript,
    server: ServerHistory,
    *,
    session_id: str,
    mirror: Messages | None = None,
) -> None:
    """Append the turn and its results (with the note), clear the errors of the tools
    that succeeded now (once they weigh ``clear_at_least``), record the new errors.

    Server-held (``server.mode == "server"``): only the results go in ``messages``; the
    turn and the results go in ``mirror``, a full local copy, and only there are errors
    cleared."""
    adapter, calls = turn.adapter, turn.calls
    held = server.mode == "server"
    if not calls:
        if not held:
            messages.extend(turn.items)
        elif mirror is not None:
            mirror.extend(copy.deepcopy(turn.items))
        server.served(turn.chain, 0, ())
        return
    succeeded = {o.tool for o in outcomes if o.ok}
    counts = transcript.recover(succeeded)
    before = transcript.saved
    rounds = transcript.sweep()
    target = mirror if held else messages
    if rounds and target is not None:
        transcript.apply(adapter, target, rounds)
        fields = {"rounds": len(rounds), "held_by_server": held}
        _observe.emit(_observe.Event("transcript.cleared", session_id, None, None, fields))
    note = None
    if counts:
        removed = Counter(t for r in rounds for t in r.tools) if not held else Counter()
        note = _words.recovered_note(counts, removed=removed or False)
    results = adapter.result_items(
        [(c, o.content, o.ok) for c, o in zip(calls, outcomes, strict=True)],
        note,
        counts.keys(),
    )
    if held:
        messages.extend(results)
        if mirror is not None:
            mirror.extend(copy.deepcopy([*turn.items, *results]))
    else:
        messages.extend([*turn.items, *results])
    server.served(
        turn.chain,
        transcript.saved - before if held and mirror is not None else 0,
        [i for r in rounds if r.removable for i in r.ids] if held else (),
    )
    # A closed tool's notice, the failure that closed it, and a failure that may have
    # taken effect are never cleared: the model must keep knowing the tool is gone, and
    # that a charge or an e-mail may have gone out (a later success proves nothing of it).
    kept = [
        o.failure is not None
        and (o.failure.status == "closed" or o.failure.closes or o.failure.uncertain)
        for o in outcomes
    ]
    failed = [
        (c.id, c.name, len(o.content) + size_of(c.arguments))
        for c, o, keep in zip(calls, outcomes, kept, strict=True)
        if o.failure is not None and not keep
    ]
    transcript.add(
        [c.id for c in calls], failed, said_more=adapter.said_more(turn.items), closed=sum(kept)
    )
