"""Local retries of one call: which failures are retried, how long to wait, what is
logged; the options tenacity's ``Retrying`` and ``AsyncRetrying`` both take.

The first attempt is a plain call made by the session; tenacity is entered only after it
failed, and replays that first failure as its own first attempt (so its wait and stop
rules see it) without running the tool again.

The retry budget is a deadline for the whole call, counted from its start: each
attempt's timeout is clipped to what is left, no wait begins that would end past it
(a wait never shortens a Retry-After: the failure goes to the model instead), and no
retry starts with less than ``LEAST_ATTEMPT`` (or the tool's shorter timeout) left. Every wait
is at most ``max_wait``, jitter included. Nothing is retried once the tool has closed,
nor after an attempt that may still be running.

Retrying is shared out: no more calls of one tool retry at once than the failures the
tool has left before it closes. A burst of calls to a failing tool then closes it after
about one attempt each, instead of every call retrying before any failure is counted.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toolhygiene import _config, _observe, _words
from toolhygiene._classify import classify
from toolhygiene._errors import Category, CoarseClass, Failure
from toolhygiene._ledger import Ledger
from toolhygiene._payload import PayloadError
from toolhygiene._reading import short_name
from toolhygiene._redact import sanitize
from toolhygiene._rules import Rule
from toolhygiene._running import AttemptTimeoutError, Plan, StillRunningError, count_down

if TYPE_CHECKING:  # imported when a retry runs, not with toolhygiene
    import tenacity

__all__ = ["LEAST_ATTEMPT", "LocalRetries", "Plan", "attempts_made"]

LEAST_ATTEMPT = 0.25
"""Seconds an attempt needs at least, or the tool's own timeout if that is shorter: no
local retry starts with less of the retry budget left (it would be cut off before it
could do what a full attempt failed to do)."""


class LocalRetries:
    """The retry policy of one session."""

    def __init__(
        self,
        *,
        max_wait: float,
        budget: float,
        rules: tuple[Rule, ...],
        line_cap: Callable[[], int],
        ledger: Ledger,
        session_id: str,
        cap: Callable[[str], int],
    ) -> None:
        self.max_wait = max_wait
        self.budget = budget
        self.rules = rules
        self.line_cap = line_cap
        self.ledger = ledger
        self.session_id = session_id
        self.cap = cap
        self._retrying: dict[str, int] = {}
        self._lock = threading.Lock()

    def classify(self, plan: Plan, exc: BaseException) -> Failure:
        """``exc`` classified with the tool's and the session's rules, once per exception.

        Never raises: an exception so hostile that classifying it fails still gives a
        line that names its type, and the log says why."""
        # Holding the exception itself (not its id) keeps a new one from aliasing it.
        if plan.seen is not None and plan.seen[0] is exc:
            return plan.seen[1]
        if type(exc) is PayloadError:  # a failure payload the tool returned: read already
            plan.seen = (exc, exc.failure)
            return exc.failure
        try:
            failure = classify(
                exc,
                plan.tool.name,
                rules=(*plan.tool.rules, *self.rules),
                cap=self.line_cap(),
                idempotent=plan.tool.idempotent,
            )
        except Exception as broken:
            failure = _unreadable(plan.tool.name, exc)
            _observe.emit(
                _observe.Event(
                    "tool.unclassified",
                    self.session_id,
                    plan.tool.name,
                    plan.call_id,
                    {"exc_type": failure.exc_type},
                    exc=broken,  # the log's exception field: what classifying raised
                )
            )
        # type() and issubclass(): isinstance() would ask a hostile __class__ property.
        if issubclass(type(exc), AttemptTimeoutError) and not exc.started:  # type: ignore[attr-defined]
            failure = dataclasses.replace(failure, never_ran=True)
        plan.seen = (exc, failure)
        return failure

    def wanted(self, plan: Plan, exc: BaseException) -> bool:
        """Whether ``exc`` is retried locally: transient, safe for this tool, the tool
        still open, its last attempt not still running, and (a failure payload the tool
        returned) not retried locally already by the agent that sent it."""
        kind = type(exc)
        if not issubclass(kind, Exception):
            return False  # KeyboardInterrupt, SystemExit, CancelledError: never retried
        if issubclass(kind, StillRunningError) or (
            issubclass(kind, AttemptTimeoutError) and exc.still_running  # type: ignore[attr-defined]
        ):
            return False
        if kind is PayloadError and exc.retried:  # type: ignore[attr-defined]
            return False  # the agent that returned it retried it already
        if plan.tool.name in self.ledger.closed or plan.probe:
            return False  # a probe is one attempt: its answer is due within its hold
        failure = self.classify(plan, exc)
        return (
            failure.retryable
            and failure.category.coarse is CoarseClass.TRANSIENT
            and (plan.tool.idempotent or failure.never_ran)
            and (failure.retry_after is None or failure.retry_after <= self.max_wait)
        )

    def enter(self, plan: Plan, exc: BaseException) -> bool:
        """Whether the call begins retrying after its first failure ``exc``: wanted, and
        fewer calls of the tool retrying than the failures it has left (``leave`` after)."""
        if not self.wanted(plan, exc):
            return False
        name = plan.tool.name
        with self._lock:
            retrying = self._retrying.get(name, 0)
            if retrying + self.ledger.failures[name] >= self.cap(name):
                return False
            self._retrying[name] = retrying + 1
        return True

    def leave(self, plan: Plan) -> None:
        """The call that ``enter`` let retry is done."""
        with self._lock:
            count_down(self._retrying, plan.tool.name)

    def timeout(self, plan: Plan) -> float | None:
        """The next attempt's timeout: the tool's, clipped to what is left of the budget."""
        if plan.tool.timeout is None:
            return None
        left = plan.began + self.budget - time.monotonic()
        return max(min(plan.tool.timeout, left), 0.001)

    @staticmethod
    def least(plan: Plan) -> float:
        """The budget a retry needs left when it starts (``LEAST_ATTEMPT``)."""
        timeout = plan.tool.timeout
        return LEAST_ATTEMPT if timeout is None else min(timeout, LEAST_ATTEMPT)

    def _wait(self, state: tenacity.RetryCallState) -> float:
        if _config.settings.instant_retries:
            return 0.0
        exc = state.outcome.exception() if state.outcome else None
        plan: Plan = state.kwargs["plan"]
        failure = self.classify(plan, exc) if exc is not None else None
        if failure is not None and failure.retry_after is not None:
            return float(min(failure.retry_after, self.max_wait))
        base = 0.25 * 2.0 ** (state.attempt_number - 1)
        jitter = random.uniform(0, base / 2)  # noqa: S311 - jitter, not secrecy
        return float(min(base + jitter, self.max_wait))  # clamped after the jitter

    def _stop(self, state: tenacity.RetryCallState) -> bool:
        plan: Plan = state.kwargs["plan"]
        return (
            state.attempt_number > plan.tool.retries
            or plan.began + self.budget - (time.monotonic() + state.upcoming_sleep)
            < self.least(plan)
            or plan.tool.name in self.ledger.closed
        )

    def _before_sleep(self, state: tenacity.RetryCallState) -> None:
        plan: Plan = state.kwargs["plan"]
        exc = state.outcome.exception() if state.outcome else None
        self.ledger.retried()
        failure = self.classify(plan, exc) if exc is not None else None
        fields = {
            "attempt": state.attempt_number,
            "wait": _words.rounded(state.upcoming_sleep),
            "category": failure.category.value if failure else None,
            "fingerprint": failure.fingerprint if failure else None,
        }
        _observe.emit(
            _observe.Event(
                "tool.retry", self.session_id, plan.tool.name, plan.call_id, fields, failure, exc
            )
        )

    def options(self, plan: Plan) -> dict[str, Any]:
        """Keyword arguments for ``tenacity.Retrying`` or ``tenacity.AsyncRetrying``."""
        import tenacity

        return {
            "retry": tenacity.retry_if_exception(lambda e: self.wanted(plan, e)),
            "wait": self._wait,
            "stop": self._stop,
            "before_sleep": self._before_sleep,
            "reraise": True,
        }


def attempts_made(retrying: tenacity.BaseRetrying) -> int:
    """How many attempts a finished tenacity run made (the replayed first one included)."""
    return int(retrying.statistics.get("attempt_number", 1))


def _unreadable(tool: str, exc: BaseException) -> Failure:
    name = sanitize(short_name(exc), 80)
    return Failure(
        tool=tool,
        category=Category.UNKNOWN,
        retryable=False,
        message=_words.unreadable(name),
        exc_type=name,
    )
