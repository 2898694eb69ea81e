"""One conversation's facts in code: calls, failures per tool, repeats of the same
failure (by the exact call, and by other arguments), closed tools, pending errors and
their tails. Every change is under one lock, so counts stay exact with many threads or
tasks at once. A success of a tool recovers that tool's pending errors and no others."""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from toolhygiene.errors import Category, Failure, FailureStatus

__all__ = ["Ledger"]


@dataclass(slots=True)
class _Pending:
    index: int
    tool: str
    category: Category
    fingerprint: str
    line: str


class Ledger:
    """Counters and tails of one conversation."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls = 0
        self.successes = 0
        self.local_retries = 0
        self.failures: Counter[str] = Counter()
        self._repeats: Counter[tuple[str, str, str]] = Counter()
        self._variants: dict[tuple[str, str], set[str]] = {}
        self.closed: set[str] = set()
        self._pending: list[_Pending] = []
        self.tails: list[dict[str, Any]] = []

    def start(self, tool: str) -> tuple[int, int | None]:
        """Count a call; its number, and the tool's failures if it is closed (else None)."""
        with self._lock:
            self.calls += 1
            return self.calls, (self.failures[tool] if tool in self.closed else None)

    def succeeded(self, tool: str, index: int) -> list[dict[str, Any]]:
        """Count a success of ``tool``; the tails of that tool's pending errors, which it
        recovers (other tools' errors stay pending)."""
        with self._lock:
            self.successes += 1
            if not self._pending:
                return []
            resolved = [p for p in self._pending if p.tool == tool]
            if not resolved:
                return []
            self._pending = [p for p in self._pending if p.tool != tool]
            return [self._tail(p, index, "recovered") for p in resolved]

    def retried(self) -> None:
        """Count a local retry."""
        with self._lock:
            self.local_retries += 1

    def failed(
        self, failure: Failure, index: int, cap: int | None, line_cap: int, call: str = ""
    ) -> tuple[Failure, str]:
        """Count a failure the model will see; returns it with its status and the line
        the model sees.

        The status is ``repeated`` if this exact
        call (``call``: a key of the tool's arguments) failed the same way before,
        ``similar`` if calls with other arguments did; ``closes`` is set when the failure
        reaches ``cap``, or when the tool closed while this call was running (``cap``
        ``None``: an unknown tool, never closed).
        """
        name = failure.tool
        with self._lock:
            # A call that started before its tool closed has run: it is counted and told as
            # what it is, a failure of a tool that is now closed.
            self.failures[name] += 1
            count = self.failures[name]
            fingerprint = failure.fingerprint  # a hash: computed once here
            key = (name, fingerprint, call)
            self._repeats[key] += 1
            variants = self._variants.setdefault((name, fingerprint), set())
            variants.add(call)
            status: FailureStatus = "failed"
            repeats = self._repeats[key]
            if repeats >= 2:
                status = "repeated"
            elif len(variants) >= 2:
                status, repeats = "similar", len(variants)
            closes = name in self.closed or (cap is not None and count >= cap)
            if closes:
                self.closed.add(name)
            failure = dataclasses.replace(
                failure, status=status, count=count, repeats=repeats, closes=closes
            )
            line = failure.line(line_cap)
            self._pending.append(_Pending(index, name, failure.category, fingerprint, line))
            return failure, line

    def stop(self) -> list[dict[str, Any]]:
        """The conversation ended: tails of the errors never recovered."""
        with self._lock:
            stopped, self._pending = self._pending, []
            return [self._tail(p, self.calls, "stopped") for p in stopped]

    def _tail(self, pending: _Pending, index: int, how: str) -> dict[str, Any]:
        tail = {
            "tool": pending.tool,
            "category": pending.category.value,
            "fingerprint": pending.fingerprint,
            "line": pending.line,
            "tail": index - pending.index,
            "outcome": how,
        }
        self.tails.append(tail)
        return tail

    def stats(self) -> dict[str, Any]:
        """A snapshot of the counts and tails."""
        with self._lock:
            return {
                "calls": self.calls,
                "successes": self.successes,
                "failures": dict(self.failures),
                "closed": sorted(self.closed),
                "local_retries": self.local_retries,
                "pending": len(self._pending),
                "tails": [dict(t) for t in self.tails],
            }
