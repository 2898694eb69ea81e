"""Pending errors and their clearing, whatever the message format.

An error is pending once the model has seen it. A pending error of tool T is cleared when
T later succeeds, and only then: a success of another tool proves nothing about T. A round
is removed whole once every failed call in it has been cleared, no call in it succeeded or
closed its tool, and the assistant said nothing else; otherwise each cleared result
shrinks to a stub and keeps its pairing. Closed tools' notices, the failure that closed a
tool, and failures that may have taken effect are never cleared. Only
rounds since the first pending error are touched, so the cached prefix of the conversation
stays as it was.

Every rewrite changes the prefix from the first edited item on, so ``clear_at_least``
lets recovered errors wait until together they weigh that many characters, and
``append_only`` never edits (the errors stay; only the note tells what recovered).
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

Clearing = Literal["remove", "stub", "append_only", "off"]
CLEARINGS: tuple[Clearing, ...] = ("remove", "stub", "append_only", "off")


@dataclass(slots=True)
class _Pending:
    """A round the model has seen, with failures not yet cleared."""

    ids: tuple[str, ...]
    failed: dict[str, str]  # call id -> tool, still pending
    whole: bool  # every call failed (none closed its tool) and the assistant said nothing else
    sizes: dict[str, int]  # call id -> characters its clearing saves
    recovered: dict[str, str] = field(default_factory=dict)  # recovered, not yet cleared


class Transcript:
    """The pending rounds of one conversation's message list.

    ``recover`` marks the errors of the tools that succeeded; ``sweep`` hands out the
    rounds to edit once the recovered errors weigh ``clear_at_least`` characters or more
    (0: at once), and ``apply`` edits a list. ``append_only`` keeps the bookkeeping (the
    note) and never edits; ``off`` keeps nothing.
    """

    def __init__(self, clearing: Clearing = "remove", clear_at_least: int = 0) -> None:
        self.clearing = clearing
        self.clear_at_least = clear_at_least
        self.saved = 0
        """Characters the cleared errors took (results, and the calls of removed rounds)."""
        self._pending: list[_Pending] = []
        self._tools: Counter[str] = Counter()  # tool -> its failures still pending
        self._lock = threading.Lock()

    @property
    def pending(self) -> int:
        """How many failed results are waiting to be cleared (recovered ones included)."""
        with self._lock:
            return sum(len(p.failed) + len(p.recovered) for p in self._pending)

    @property
    def waiting(self) -> int:
        """Characters of recovered errors waiting for ``clear_at_least``."""
        with self._lock:
            return sum(p.sizes[i] for p in self._pending for i in p.recovered)

    def recover(self, succeeded: Collection[str]) -> Mapping[str, int]:
        """Mark the pending errors of the tools in ``succeeded`` as recovered; returns how
        many failed calls of each tool recovered now (empty when none)."""
        counts: Counter[str] = Counter()
        with self._lock:
            if not any(tool in self._tools for tool in succeeded):
                return counts  # no pending error of these tools: no round to look through
            for pending in self._pending:
                now = [i for i, t in pending.failed.items() if t in succeeded]
                for call_id in now:
                    tool = pending.failed.pop(call_id)
                    counts[tool] += 1
                    pending.recovered[call_id] = tool
            self._tools -= counts  # a Counter keeps only tools with failures still pending
        return counts

    def sweep(self) -> list[Round]:
        """The rounds to edit now: every recovered error, once together they weigh at
        least ``clear_at_least`` characters (those held back by earlier successes too);
        none before (nor ever in ``append_only``)."""
        if self.clearing not in ("remove", "stub"):
            return []
        with self._lock:
            ready = [p for p in self._pending if p.recovered]
            weight = sum(p.sizes[i] for p in ready for i in p.recovered)
            if not ready or weight < max(self.clear_at_least, 1):
                return []
            rounds = []
            for pending in ready:
                removable = self.clearing == "remove" and pending.whole and not pending.failed
                failed = tuple(sorted(pending.recovered))
                tools = tuple(pending.recovered[i] for i in failed)
                rounds.append(Round(pending.ids, failed, removable, tools))
                pending.recovered.clear()
            self._pending = [p for p in self._pending if p.failed]
            self.saved += weight
        return rounds

    @staticmethod
    def apply(adapter: Adapter, messages: Messages, rounds: Sequence[Round]) -> None:
        """Edit ``messages``: remove the removable rounds whole, shrink the others' cleared
        results to the stub."""
        for round_ in reversed(rounds):
            if not (round_.removable and adapter.remove(messages, round_)):
                adapter.stub(messages, round_)

    def add(
        self,
        ids: Sequence[str],
        failed: Sequence[tuple[str, str, int]],
        *,
        said_more: bool,
        closed: int,
        cleared: int = 0,
    ) -> None:
        """Record a round the model is about to see, if it holds errors to clear later.

        ``failed``: (call id, tool, characters its clearing would save) of the failures to
        clear later; ``closed``: how many results are never cleared (closed-tool notices,
        the failure that closed a tool, a failure that may have taken effect) and keep the
        round in place; ``cleared``: how many were cleared already (a round rebuilt from
        a list by ``Session.resume``, whose other errors are still pending).
        """
        if not failed or self.clearing == "off":
            return
        pending = _Pending(
            ids=tuple(ids),
            failed={i: t for i, t, _ in failed},
            whole=len(failed) + cleared == len(ids) and not said_more and not closed,
            sizes={i: n for i, _, n in failed},
        )
        with self._lock:
            self._pending.append(pending)
            self._tools.update(pending.failed.values())
