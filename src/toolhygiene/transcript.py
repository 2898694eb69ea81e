"""Pending errors and their clearing, whatever the message format.

An error is pending once the model has seen it. A pending error of tool T is cleared when
T later succeeds, and only then: a success of another tool proves nothing about T. A round
is removed whole once every failed call in it has been cleared, no call in it succeeded or
closed its tool, and the assistant said nothing else; otherwise each cleared result
shrinks to a stub and keeps its pairing. Closed tools' notices, the failure that closed a
tool, and failures that may have taken effect are never cleared. Only
rounds since the first pending error are touched, so the cached prefix of the conversation
stays as it was.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from toolhygiene.formats import Adapter, Round
from toolhygiene.formats._base import Messages

__all__ = ["Clearing", "Transcript"]

Clearing = Literal["remove", "stub", "off"]
CLEARINGS: tuple[Clearing, ...] = ("remove", "stub", "off")


@dataclass(slots=True)
class _Pending:
    """A round the model has seen, with failures not yet cleared."""

    ids: tuple[str, ...]
    failed: dict[str, str]  # call id -> tool, still pending
    whole: bool  # every call failed (none closed its tool) and the assistant said nothing else
    cleared: set[str] = field(default_factory=set)


class Transcript:
    """The pending rounds of one conversation's message list."""

    def __init__(self, clearing: Clearing = "remove") -> None:
        self.clearing = clearing
        self._pending: list[_Pending] = []
        self._lock = threading.Lock()

    @property
    def pending(self) -> int:
        """How many failed results are waiting to be cleared."""
        with self._lock:
            return sum(len(p.failed) for p in self._pending)

    def clear(
        self, adapter: Adapter, messages: Messages, succeeded: Collection[str]
    ) -> Mapping[str, int]:
        """Clear the pending errors of the tools in ``succeeded``; returns how many
        failed calls of each tool were cleared (empty when none)."""
        if not succeeded:
            return {}
        counts: Counter[str] = Counter()
        work: list[tuple[_Pending, tuple[str, ...]]] = []
        with self._lock:
            for pending in self._pending:
                now = tuple(i for i, t in pending.failed.items() if t in succeeded)
                if not now:
                    continue
                for call_id in now:
                    counts[pending.failed.pop(call_id)] += 1
                pending.cleared.update(now)
                work.append((pending, now))
            self._pending = [p for p in self._pending if p.failed]
        for pending, now in reversed(work):
            removable = self.clearing == "remove" and pending.whole and not pending.failed
            if not (removable and adapter.remove(messages, Round(pending.ids, now, True))):
                adapter.stub(messages, Round(pending.ids, now, False))
        return counts

    def add(
        self,
        ids: Sequence[str],
        failed: Sequence[tuple[str, str]],
        *,
        said_more: bool,
        closed: int,
    ) -> None:
        """Record a round the model is about to see, if it holds errors to clear later.

        ``failed``: (call id, tool) of the failures to clear later; ``closed``: how many
        results are never cleared (closed-tool notices, the failure that closed a tool, a
        failure that may have taken effect) and keep the round in place.
        """
        if not failed or self.clearing == "off":
            return
        pending = _Pending(
            ids=tuple(ids),
            failed=dict(failed),
            whole=len(failed) == len(ids) and not said_more and not closed,
        )
        with self._lock:
            self._pending.append(pending)
