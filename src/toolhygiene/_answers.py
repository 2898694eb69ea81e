"""What a store is asked (``Store``) and what it answers, as records: a failure as it
counted it (``Counted``), what an upstream's breaker says (``Gate``), a call as it
started it (``Started``) and an error waiting for its tool's next success (``Waiting``).
The shells ask the store; the core decides on these answers without importing it.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

__all__ = ["Counted", "Gate", "Started", "Store", "Waiting"]


class Counted(NamedTuple):
    """One failure as the store counted it: the tool's failures so far, how many times
    this exact call failed this way, how many different calls did, and whether the tool
    is closed now (by this failure or before)."""

    failures: int
    repeats: int
    variants: int
    closes: bool


class Gate(NamedTuple):
    """What the shared breaker says of an upstream before a call.

    ``state``: ``"free"`` (no trouble known), ``"streak"`` (failing, not open yet: the call
    runs), ``"probe"`` (open and its window passed: this caller alone tests it; from
    ``Store.start``, which only looks: the probe is due, ``admit`` claims it), ``"open"``
    (refused; ``wait`` s until a probe), ``"probing"`` (refused: another caller is testing
    it, its answer due within ``wait`` s); ``failing_for``: seconds since the first failure
    of the streak; ``failures``: failed calls in the streak.
    """

    state: str
    failing_for: float = 0.0
    failures: int = 0
    wait: float = 0.0

    @property
    def refused(self) -> bool:
        """The call must not run."""
        return self.state in ("open", "probing")


class Started(NamedTuple):
    """A call as the store started it: its number in the conversation (counted across
    every worker), the tool's failures if it is closed (else ``None``), whether errors of
    the tool wait for its next success, and the upstream's breaker (``None``: no upstream
    asked)."""

    number: int
    closed: int | None
    waiting: bool
    gate: Gate | None


class Waiting(NamedTuple):
    """An error the model saw, waiting for its tool's next success: the number of the
    call that failed, the tool, its category, fingerprint, the line the model read and
    the failing call's id in the model's turn (``None``: none was given, or the error
    was kept by an older version, which wrote no id). Its tail is the calls from it to
    that success (or to the conversation's end)."""

    number: int
    tool: str
    category: str
    fingerprint: str
    line: str
    call_id: str | None = None


class Store(Protocol):
    """What a Session asks of a store; ``session`` is the conversation's id."""

    def start(self, session: str, tool: str, *, known: int, upstream: str | None) -> Started:
        """Start a call of ``tool``: its number in the conversation (never at or below
        ``known``, the calls the caller has seen), whether the tool is closed or has errors
        waiting, and, for a tool with an ``upstream``, what its breaker says (only
        looking: a due probe is claimed with ``admit``). One round trip."""

    def admit(self, upstream: str, probe_for: float | None) -> Gate:
        """Whether a call to ``upstream`` may run, for every conversation sharing the
        store; a caller let through to probe an open upstream holds the probe for
        ``probe_for`` seconds (``None``: the breaker's window), the longest the probe can
        take to answer."""

    def failed(
        self, session: str, tool: str, fingerprint: str, call: str, *, cap: int | None, known: int
    ) -> Counted:
        """Count one failure the model will see, atomically; ``cap`` ``None``: never
        closes (a tool that does not exist). ``known``: the failures the caller has seen
        already; the count never goes below it (a Redis restarted without its data, or
        failures counted in memory while it was away)."""

    def wait(self, session: str, error: Waiting) -> None:
        """``error`` waits for its tool's next success, in whichever worker it lands."""

    def recovered(self, session: str, tool: str) -> list[Waiting]:
        """A call of ``tool`` succeeded: its waiting errors, taken off (each is told once)."""

    def ended(self, session: str) -> tuple[int, list[Waiting]]:
        """The conversation ended: its calls so far and the errors still waiting, taken off."""

    def counts(self, session: str) -> tuple[dict[str, int], set[str]]:
        """Failures per tool and the closed tools of a conversation."""

    def upstream_failed(self, upstream: str, retry_after: float | None) -> None:
        """A call to ``upstream`` failed transiently (connectivity, 5xx, 429)."""

    def upstream_ok(self, upstream: str) -> None:
        """A call to ``upstream`` got an answer: the streak and the breaker end."""
