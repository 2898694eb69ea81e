"""One round of a hand-rolled agent loop: read the model's turn, run its calls, append
the turn and the results to the message list, clear errors the agent recovered from.

``Session.handle`` and ``Session.ahandle`` are thin shells over ``begin`` and ``finish``;
only the running of the calls differs (threads or ``asyncio.gather``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolhygiene import formats
from toolhygiene._log import logger
from toolhygiene.formats import Adapter, Call
from toolhygiene.formats._base import Messages

if TYPE_CHECKING:
    from toolhygiene.session import Outcome
    from toolhygiene.transcript import Transcript

__all__ = ["Turn", "begin", "finish"]


@dataclass(frozen=True, slots=True)
class Turn:
    """The model's turn, appended, with the calls still to run."""

    adapter: Adapter
    items: list[dict[str, Any]]
    calls: list[Call]


def begin(response: Any, messages: Messages, fmt: str | None) -> Turn:
    """Append the model's turn to ``messages`` and return it with its tool calls."""
    adapter = formats.adapter(fmt or formats.detect(response))
    items = adapter.assistant_items(response)
    messages.extend(items)
    return Turn(adapter, items, adapter.calls(items))


def finish(
    turn: Turn, outcomes: Sequence[Outcome], messages: Messages, transcript: Transcript
) -> None:
    """Clear recovered errors, append the results (with the note), record new errors."""
    adapter, calls = turn.adapter, turn.calls
    note = None
    if any(o.ok for o in outcomes):
        cleared, note = transcript.clear(adapter, messages)
        if cleared:
            logger.info(
                "transcript.cleared",
                rounds=len(cleared),
                errors=sum(len(r.failed) for r in cleared),
            )
    messages.extend(
        adapter.result_items(
            [(c, o.content, o.ok) for c, o in zip(calls, outcomes, strict=True)], note
        )
    )
    # A closed tool's notice, and the failure that closed it, are never cleared: the model
    # must keep knowing the tool is gone.
    kept = [
        o.failure is not None and (o.failure.status == "closed" or o.failure.closes)
        for o in outcomes
    ]
    failed = [
        (c.id, c.name)
        for c, o, keep in zip(calls, outcomes, kept, strict=True)
        if o.failure is not None and not keep
    ]
    closed = sum(kept)
    transcript.add(
        [c.id for c in calls], failed, said_more=adapter.said_more(turn.items), closed=closed
    )
