"""One conversation's facts in code: calls, failures per tool, repeats of the same
failure (by the exact call, and by other arguments), closed tools, pending errors and
their tails. Every change is under one lock, so counts stay exact with many threads or
tasks at once. A success of a tool recovers that tool's pending errors and no others.

Every record has a ceiling, so a conversation of any length holds a bounded amount:
the counts caps depend on (failures of each real tool) are never dropped; unknown tool
names beyond ``UNKNOWN_NAMES`` share one entry, the oldest of more than ``FINGERPRINTS``
distinct failures are forgotten (a repeat of one is then counted afresh), at most
``VARIANTS`` different arguments are told apart per failure, pending errors beyond
``PENDING`` are counted but get no tail, and ``tails`` keeps the latest ``TAILS``.
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolhygiene._answers import Counted, Started, Waiting
from toolhygiene._errors import Category, Failure, FailureStatus

__all__ = [
    "FINGERPRINTS",
    "OTHER_UNKNOWN",
    "PENDING",
    "TAILS",
    "UNKNOWN_NAMES",
    "VARIANTS",
    "Ledger",
]

UNKNOWN_NAMES = 64
"""Unknown tool names counted one by one; the rest are counted under ``OTHER_UNKNOWN``."""
OTHER_UNKNOWN = "(other unknown tools)"
FINGERPRINTS = 4096
"""Distinct failures (tool + fingerprint + call) whose repeats are counted at once."""
VARIANTS = 64
"""Different arguments told apart for one failure (the count shown stops there)."""
PENDING = 1024
"""Pending errors whose tails are measured at once; more are counted as untracked."""
TAILS = 1024
"""Finished tails kept for ``stats()`` (every tail is logged as it finishes)."""


@dataclass(slots=True)
class _Pending:
    number: int
    tool: str
    category: Category
    fingerprint: str
    line: str
    call_id: str | None


def _category(value: str) -> Category:
    try:
        return Category(value)
    except ValueError:
        return Category.UNKNOWN


class Ledger:
    """Counters and tails of one conversation."""

    def __init__(self, shared: bool = False) -> None:
        self.shared = shared  # a store keeps the conversation's counts too (its shell asks it)
        self._lock = threading.Lock()
        self.calls = 0
        self.successes = 0
        self.local_retries = 0
        self.failures: Counter[str] = Counter()
        self._repeats: Counter[tuple[str, str, str]] = Counter()
        self._variants: dict[tuple[str, str], set[str]] = {}
        self.closed: set[str] = set()
        self._pending: list[_Pending] = []
        self._untracked: Counter[str] = Counter()
        self.tails: deque[dict[str, Any]] = deque(maxlen=TAILS)
        self.tails_total = 0
        self._waiting: set[str] = set()  # tools the store said have errors waiting
        self._retrying: dict[str, int] = {}  # calls of each tool retrying now

    def known(self) -> int:
        """The calls counted here (what a store is told it knows of, when it starts one)."""
        with self._lock:
            return self.calls

    def start(self, tool: str, started: Started | None = None) -> tuple[int, int | None]:
        """Count a call; its number and the tool's failures if it is closed (else None).
        With a store, ``started`` is its answer (``Store.start``, asked by the shell)."""
        with self._lock:
            if started is None:
                self.calls += 1
                return self.calls, (self.failures[tool] if tool in self.closed else None)
            self.calls = max(self.calls + 1, started.number)
            shared = started.closed
            if started.waiting:
                self._waiting.add(tool)
            if shared is not None:
                self.closed.add(tool)
                self.failures[tool] = max(self.failures[tool], shared)
            elif tool in self.closed:  # closed is for good, whatever the store forgot
                shared = self.failures[tool]
            return self.calls, shared

    def succeeded(
        self, tool: str, index: int, call_id: str | None = None
    ) -> list[tuple[str | None, dict[str, Any]]] | None:
        """Count a success of ``tool`` (call ``call_id``); the tails of that tool's pending
        errors, which it recovers (other tools' errors stay pending), each with the id of
        the call that failed. With a store: ``None`` when the store must be asked for the
        errors of every worker (``Store.recovered``, by the shell; ``recovered`` takes its
        answer), else no tails."""
        with self._lock:
            self.successes += 1
            mine: list[_Pending] = []
            if self._pending or self._untracked:  # else nothing here waits to be recovered
                self._untracked.pop(tool, None)
                mine = [p for p in self._pending if p.tool == tool]
                if mine:
                    self._pending = [p for p in self._pending if p.tool != tool]
            if not self.shared:
                return [self._tail(p, index, "recovered", call_id) for p in mine] if mine else []
            ask = bool(mine) or tool in self._waiting
            self._waiting.discard(tool)
        return None if ask else []

    def recovered(
        self, found: list[Waiting] | None, index: int, call_id: str | None = None
    ) -> list[tuple[str | None, dict[str, Any]]]:
        """The store's answer to a success (``Store.recovered``; ``None``: it failed): the
        errors of every worker that it recovers, their tails counting the calls each
        worker made, each naming its failing call as ``succeeded`` does."""
        with self._lock:
            return [self._tail(w, index, "recovered", call_id) for w in found or ()]

    def enter(self, tool: str, cap: int) -> bool:
        """Whether one more call of ``tool`` may retry locally (then counted until
        ``leave``): no more calls of one tool retry at once than the failures it has left
        before it closes at ``cap``."""
        with self._lock:
            retrying = self._retrying.get(tool, 0)
            if retrying + self.failures[tool] >= cap:
                return False
            self._retrying[tool] = retrying + 1
        return True

    def leave(self, tool: str) -> None:
        """A call that ``enter`` let retry is done."""
        with self._lock:
            left = self._retrying.get(tool, 0) - 1
            if left > 0:
                self._retrying[tool] = left
            else:
                self._retrying.pop(tool, None)

    def retried(self) -> None:
        """Count a local retry."""
        with self._lock:
            self.local_retries += 1

    def failing(self, name: str, cap: int | None) -> tuple[str, int]:
        """With a store, before it is asked to count a failure of ``name``: the name it is
        counted under and the failures known here."""
        with self._lock:
            name = self._named(name, cap)
            return name, self.failures[name]

    def failed(
        self,
        failure: Failure,
        index: int,
        cap: int | None,
        line_cap: int,
        call: str = "",
        *,
        changes: Mapping[str, Any] | None = None,
        fingerprint: str | None = None,
        call_id: str | None = None,
        counted: Counted | None = None,
        name: str | None = None,
    ) -> tuple[Failure, str]:
        """Count a failure the model will see; returns it with its status (and
        ``changes``: other fields, in the same one copy) and the line the model sees;
        ``fingerprint`` is the failure's, when the caller has it already; ``call_id`` the
        call's id in the model's turn, which its tail will carry. With a store,
        ``counted`` is its answer (``Store.failed``, asked by the shell under ``name``,
        from ``failing``; ``None``: it failed, the failure is counted here).

        The status is ``repeated`` if this exact
        call (``call``: a key of the tool's arguments) failed the same way before,
        ``similar`` if calls with other arguments did; ``closes`` is set when the failure
        reaches ``cap``, or when the tool closed while this call was running (``cap``
        ``None``: an unknown tool, never closed).
        """
        if fingerprint is None:  # a hash: computed once, here or by the caller
            fingerprint = failure.fingerprint
        with self._lock:
            # A call that started before its tool closed has run: it is counted and told as
            # what it is, a failure of a tool that is now closed.
            if counted is not None:
                assert name is not None
                count, repeats, variety, closes = counted
                self.failures[name] = count
            else:
                if name is None:  # else named with the store's known count by ``failing``
                    name = self._named(failure.tool, cap)
                count, repeats, variety = self._count(name, fingerprint, call)
                closes = name in self.closed or (cap is not None and count >= cap)
            status: FailureStatus = "failed"
            if repeats >= 2:
                status = "repeated"
            elif variety >= 2:
                status, repeats = "similar", variety
            if closes:
                self.closed.add(name)
            failure = failure._evolved(
                {
                    **(changes or {}),
                    "status": status,
                    "count": count,
                    "repeats": repeats,
                    "closes": closes,
                    "line_cap": line_cap,
                }
            )
            line = failure.line()
            if len(self._pending) < PENDING:
                self._pending.append(
                    _Pending(index, name, failure.category, fingerprint, line, call_id)
                )
            else:
                self._untracked[name] += 1
        return failure, line

    def _named(self, name: str, cap: int | None) -> str:
        """The name a failure is counted under (under the lock): an unknown name has no
        cap, so past ``UNKNOWN_NAMES`` of them one entry takes the rest."""
        if cap is None and name not in self.failures and len(self.failures) >= UNKNOWN_NAMES:
            return OTHER_UNKNOWN
        return name

    def _count(self, name: str, fingerprint: str, call: str) -> tuple[int, int, int]:
        """Count a failure here: the tool's failures, this exact call's repeats, and how
        many different calls failed this way (under the lock)."""
        self.failures[name] += 1
        key = (name, fingerprint, call)
        if key not in self._repeats and len(self._repeats) >= FINGERPRINTS:
            del self._repeats[next(iter(self._repeats))]  # the oldest is forgotten
        self._repeats[key] += 1
        variants = self._variants.get((name, fingerprint))
        if variants is None:
            if len(self._variants) >= FINGERPRINTS:
                del self._variants[next(iter(self._variants))]
            variants = self._variants[(name, fingerprint)] = set()
        if len(variants) < VARIANTS:
            variants.add(call)
        return self.failures[name], self._repeats[key], len(variants)

    def restore(
        self,
        failures: Counter[str],
        closed: set[str],
        calls: int,
        successes: int,
        pending: list[tuple[int, str, str, str, str]],
    ) -> None:
        """Take the counts a message list proves (``Session.resume``): failures per tool,
        closed tools, calls, successes and the pending errors (call number, tool,
        category, line, call id). The same-failure counters start afresh: the list cannot prove
        them."""
        with self._lock:
            self.failures = Counter(failures)
            self.closed = set(closed)
            self.calls = calls
            self.successes = successes
            self._pending = [
                _Pending(index, tool, _category(category), "", line, call_id)
                for index, tool, category, line, call_id in pending[:PENDING]
            ]

    def stop(
        self, ended: tuple[int, list[Waiting]] | None = None
    ) -> list[tuple[str | None, dict[str, Any]]]:
        """The conversation ended: tails of the errors never recovered, each with the id
        of the call that failed. With a store, ``ended`` is its answer (``Store.ended``,
        asked by the shell; ``None``: it failed): every worker's errors, counted to the
        conversation's last call."""
        with self._lock:
            stopped, self._pending = self._pending, []
            self._untracked.clear()
            if not self.shared:
                return [self._tail(p, self.calls, "stopped") for p in stopped]
            if ended is None:
                return []
            calls, found = ended
            self.calls = max(self.calls, calls)
            return [self._tail(w, self.calls, "stopped") for w in found]

    def _tail(
        self, pending: _Pending | Waiting, index: int, how: str, by: str | None = None
    ) -> tuple[str | None, dict[str, Any]]:
        """The tail's event fields, with the failing call's id apart (the event's own
        ``call_id``); ``stats()`` keeps both in one record. ``by``: the id of the call
        that recovered the error (``recovered_by``), when known. An error kept in a store
        (``Waiting``) carries its call id too (none when an older version kept it)."""
        category = pending.category
        call_id = pending.call_id
        tail = {
            "tool": pending.tool,
            "category": category if isinstance(category, str) else category.value,
            "fingerprint": pending.fingerprint,
            "line": pending.line,
            "tail": index - pending.number,
            "outcome": how,
        }
        if by is not None:
            tail["recovered_by"] = by
        self.tails.append({"call_id": call_id, **tail})
        self.tails_total += 1
        return call_id, tail

    def stats(self) -> dict[str, Any]:
        """A snapshot of the counts and tails."""
        with self._lock:
            return {
                "calls": self.calls,
                "successes": self.successes,
                "failures": dict(self.failures),
                "closed": sorted(self.closed),
                "local_retries": self.local_retries,
                "pending": len(self._pending) + sum(self._untracked.values()),
                "tails": [dict(t) for t in self.tails],
                "tails_total": self.tails_total,
            }
