"""Local retries of one call: which failures are retried, how long to wait, what is
logged; the options tenacity's ``Retrying`` and ``AsyncRetrying`` both take.

The first attempt is a plain call made by the session; tenacity is entered only after it
failed, and replays that first failure as its own first attempt (so its wait and stop
rules see it) without running the tool again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import tenacity

from toolhygiene import _config, _observe
from toolhygiene.classify import classify
from toolhygiene.errors import CoarseClass, Failure
from toolhygiene.ledger import Ledger
from toolhygiene.rules import Rule
from toolhygiene.tool import Tool

__all__ = ["LocalRetries", "Plan", "attempts_made"]


@dataclass(slots=True)
class Plan:
    """One call in flight: the tool, its validated values, what the model sent, its
    number in the session, and the last exception classified (with its verdict)."""

    tool: Tool[Any, Any]
    values: dict[str, Any]
    arguments: Mapping[str, Any] | str | bytes | None
    index: int
    call_id: str | None = None
    seen: tuple[BaseException, Failure] | None = None


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
    ) -> None:
        self.max_wait = max_wait
        self.budget = budget
        self.rules = rules
        self.line_cap = line_cap
        self.ledger = ledger
        self.session_id = session_id

    def classify(self, plan: Plan, exc: BaseException) -> Failure:
        """``exc`` classified with the tool's and the session's rules, once per exception."""
        # Holding the exception itself (not its id) keeps a new one from aliasing it.
        if plan.seen is not None and plan.seen[0] is exc:
            return plan.seen[1]
        failure = classify(
            exc,
            plan.tool.name,
            rules=(*plan.tool.rules, *self.rules),
            cap=self.line_cap(),
            idempotent=plan.tool.idempotent,
        )
        plan.seen = (exc, failure)
        return failure

    def wanted(self, plan: Plan, exc: BaseException) -> bool:
        """Whether ``exc`` is retried locally: transient, and safe for this tool."""
        if not isinstance(exc, Exception):
            return False  # KeyboardInterrupt, SystemExit, CancelledError: never retried
        failure = self.classify(plan, exc)
        return (
            failure.retryable
            and failure.category.coarse is CoarseClass.TRANSIENT
            and (plan.tool.idempotent or failure.never_ran)
            and (failure.retry_after is None or failure.retry_after <= self.max_wait)
        )

    def _wait(self, state: tenacity.RetryCallState) -> float:
        if _config.settings.instant_retries:
            return 0.0
        exc = state.outcome.exception() if state.outcome else None
        plan: Plan = state.kwargs["plan"]
        failure = self.classify(plan, exc) if exc is not None else None
        if failure is not None and failure.retry_after is not None:
            return float(min(failure.retry_after, self.max_wait))
        base = float(min(0.25 * 2.0 ** (state.attempt_number - 1), self.max_wait))
        return base + random.uniform(0, base / 2)  # noqa: S311 - jitter, not secrecy

    def _before_sleep(self, state: tenacity.RetryCallState) -> None:
        plan: Plan = state.kwargs["plan"]
        exc = state.outcome.exception() if state.outcome else None
        self.ledger.retried()
        failure = self.classify(plan, exc) if exc is not None else None
        fields = {
            "attempt": state.attempt_number,
            "wait": state.upcoming_sleep,
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
        return {
            "retry": tenacity.retry_if_exception(lambda e: self.wanted(plan, e)),
            "wait": self._wait,
            "stop": tenacity.stop_after_attempt(plan.tool.retries + 1)
            | tenacity.stop_after_delay(self.budget),
            "before_sleep": self._before_sleep,
            "reraise": True,
        }


def attempts_made(retrying: tenacity.BaseRetrying) -> int:
    """How many attempts a finished tenacity run made (the replayed first one included)."""
    return int(retrying.statistics.get("attempt_number", 1))
