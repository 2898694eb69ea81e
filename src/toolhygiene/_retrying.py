"""The local retry policy of one call: which failures are retried, how long each wait is,
when retrying stops, and each attempt's timeout. It decides only: it runs nothing, sleeps
never, records and logs nothing (the Session's shells do, ``_session``).

As stamina does, the policy keeps its per-attempt verdict on tenacity's own
``RetryCallState``: the ``retry`` predicate classifies an attempt's exception once and
leaves the ``Verdict`` there, where ``wait``, ``stop`` and the shells read it.

The first attempt is a plain call made by the session; tenacity is entered only after it
failed, and replays that first failure as its own first attempt (so its wait and stop
rules see it) without running the tool again.

The retry budget is a deadline for the whole call, counted from its start on the policy's
clock: each attempt's timeout is clipped to what is left, no wait begins that would end
past it (a wait never shortens a Retry-After: the failure goes to the model instead), and
no retry starts with less than ``LEAST_ATTEMPT`` (or the tool's shorter timeout) left.
Every wait is at most ``max_wait``, jitter included. Nothing is retried once the tool has
closed, nor after an attempt that may still be running.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from toolhygiene._call import Plan
from toolhygiene._config import LEAST_ATTEMPT
from toolhygiene._errors import CoarseClass, Failure
from toolhygiene._payload import PayloadError
from toolhygiene._running import AttemptTimeoutError, StillRunningError

if TYPE_CHECKING:  # imported when a retry runs, not with toolhygiene
    import tenacity

__all__ = [
    "LEAST_ATTEMPT",
    "RetryPolicy",
    "Verdict",
    "attempt_timeout",
    "may_retry",
    "verdict_of",
]

_VERDICT = "_toolhygiene_verdict"
"""The attribute of tenacity's ``RetryCallState`` that holds the last ``Verdict``."""


class Verdict(NamedTuple):
    """An attempt's exception and the failure it was classified as."""

    exc: BaseException
    failure: Failure


def verdict_of(state: tenacity.RetryCallState | None) -> Verdict | None:
    """The last verdict the policy left on ``state`` (none for a refused attempt)."""
    found: Verdict | None = getattr(state, _VERDICT, None)
    return found


def attempt_timeout(plan: Plan, budget: float, now: float) -> float | None:
    """The next attempt's timeout: the tool's, clipped to what is left of the budget."""
    if plan.tool.timeout is None:
        return None
    left = plan.began + budget - now
    return max(min(plan.tool.timeout, left), 0.001)


def never_retried(exc: BaseException) -> bool:
    """Whether ``exc`` ends retrying before it is even classified: not an ``Exception``
    (KeyboardInterrupt, SystemExit, CancelledError), a refusal, an attempt that may
    still be running, or a failure payload the tool returned that the agent which sent
    it retried locally already (each attempt here would run all of its retries again)."""
    kind = type(exc)  # type() and issubclass(): isinstance() would ask a hostile __class__
    return (
        not issubclass(kind, Exception)
        or issubclass(kind, StillRunningError)
        or (issubclass(kind, AttemptTimeoutError) and exc.still_running)  # type: ignore[attr-defined]
        or (kind is PayloadError and exc.retried)  # type: ignore[attr-defined]
    )


def may_retry(plan: Plan, failure: Failure) -> bool:
    """Whether a first failure could be retried locally at all: the tool has retries
    and the failure is retryable (``RetryPolicy.wanted`` asks the rest). When it cannot,
    no policy is built and tenacity is not entered."""
    return plan.tool.retries > 0 and failure.retryable


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """The retry policy of one call, with the settings in force when the call retries.

    Args:
        plan: the call.
        max_wait: the longest single wait, jitter included.
        budget: seconds the whole call may take, from ``plan.began``.
        judge: classifies an attempt's exception (the Session's rules), never raising.
        closed: whether the tool has closed meanwhile.
        first: the verdict on the first attempt, already made before tenacity began
            (so the replayed first failure is not classified twice).
        clock: the budget's clock, in seconds (``time.monotonic``); the waits that
            instant retries skipped (``plan.skipped``) are added to it.
    """

    plan: Plan
    max_wait: float
    budget: float
    judge: Callable[[BaseException], Failure]
    closed: Callable[[], bool]
    first: Verdict | None = None
    clock: Callable[[], float] = time.monotonic

    def now(self) -> float:
        """The budget's time: the clock and the waits skipped by instant retries."""
        return self.clock() + self.plan.skipped

    def wanted(self, failure: Failure) -> bool:
        """Whether a classified failure is worth a local retry: transient, safe for this
        tool, no Retry-After longer than ``max_wait``, the tool still open, and the call
        no probe of an open upstream (one attempt: its answer is due within its hold)."""
        return (
            not self.plan.probe
            and failure.retryable
            and failure.category.coarse is CoarseClass.TRANSIENT
            and (self.plan.tool.idempotent or failure.never_ran)
            and (failure.retry_after is None or failure.retry_after <= self.max_wait)
            and not self.closed()
        )

    def possible(self) -> bool:
        """Whether a local retry could start after the first attempt as far as the
        budget goes: at least ``least()`` of it is left before any wait (a wait only
        leaves less). Decided before tenacity is entered, with ``may_retry``: a call that
        cannot retry never builds a retry loop. ``stop`` stays the rule for every later
        attempt."""
        return self.plan.began + self.budget - self.now() >= self.least()

    def timeout(self) -> float | None:
        """The next attempt's timeout (``attempt_timeout``)."""
        return attempt_timeout(self.plan, self.budget, self.now())

    def least(self) -> float:
        """The budget a retry needs left when it starts (``LEAST_ATTEMPT``)."""
        timeout = self.plan.tool.timeout
        return LEAST_ATTEMPT if timeout is None else min(timeout, LEAST_ATTEMPT)

    def retry(self, state: tenacity.RetryCallState) -> bool:
        """tenacity's ``retry`` predicate: the attempt's exception classified once, its
        ``Verdict`` left on ``state``; a refused attempt leaves the last one there."""
        exc = state.outcome.exception() if state.outcome else None
        if exc is None or never_retried(exc):
            return False
        first = self.first
        verdict = first if first is not None and first.exc is exc else Verdict(exc, self.judge(exc))
        setattr(state, _VERDICT, verdict)
        return self.wanted(verdict.failure)

    def wait(self, state: tenacity.RetryCallState) -> float:
        """The wait before the next attempt: the failure's Retry-After, else exponential
        backoff from 0.25 s with up to half as much jitter; at most ``max_wait`` (clamped
        after the jitter)."""
        verdict = verdict_of(state)
        if verdict is not None and verdict.failure.retry_after is not None:
            return float(min(verdict.failure.retry_after, self.max_wait))
        base = 0.25 * 2.0 ** (state.attempt_number - 1)
        jitter = random.uniform(0, base / 2)  # noqa: S311 - jitter, not secrecy
        return float(min(base + jitter, self.max_wait))

    def stop(self, state: tenacity.RetryCallState) -> bool:
        """Whether retrying stops: the tool's retries are spent, the wait would leave
        less than ``least()`` of the budget, or the tool has closed."""
        return (
            state.attempt_number > self.plan.tool.retries
            or self.plan.began + self.budget - (self.now() + state.upcoming_sleep) < self.least()
            or self.closed()
        )

    def options(self) -> dict[str, Any]:
        """The decisions as keyword arguments of ``tenacity.Retrying``/``AsyncRetrying``."""
        return {
            "retry": self.retry,
            "wait": self.wait,
            "stop": self.stop,
            "reraise": True,
        }
