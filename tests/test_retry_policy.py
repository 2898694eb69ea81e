"""The retry policy decides and nothing else: given tenacity's own retry state and a
clock that moves only when told, it says whether to retry, how long to wait, when to
stop and how long the next attempt may take. It runs no tool, sleeps never and writes no
log. Real httpx exceptions are classified."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import toolhygiene as th
from helpers import FakeClock, retry_policy, retry_state


def _status(code: int, headers: dict[str, str] | None = None) -> httpx.HTTPStatusError:
    request = httpx.Request("GET", "https://api.example.com/orders")
    try:
        httpx.Response(code, headers=headers, request=request).raise_for_status()
    except httpx.HTTPStatusError as exc:
        return exc
    raise AssertionError("not raised")


def test_a_retry_after_that_would_pass_the_deadline_stops_retrying() -> None:
    """Budget 0.95 s, Retry-After 0.5 s: after the first failure the wait fits (0.45 s
    left, more than LEAST_ATTEMPT); after the second, a second wait would leave less."""
    clock = FakeClock()
    policy = retry_policy(budget=0.95, clock=clock)
    first = retry_state(1, _status(429, {"retry-after": "0.5"}))
    assert policy.retry(first)
    assert policy.wait(first) == 0.5
    first.upcoming_sleep = policy.wait(first)
    assert not policy.stop(first)
    clock.advance(0.5)
    second = retry_state(2, _status(429, {"retry-after": "0.5"}), upcoming_sleep=0.5)
    assert policy.retry(second)
    assert policy.stop(second)


def test_the_budget_counts_waits_skipped_by_instant_retries() -> None:
    """The clock never moves; the waits skipped (``Plan.skipped``) still count."""
    policy = retry_policy(budget=0.95, clock=FakeClock())
    assert not policy.stop(retry_state(1, upcoming_sleep=0.5))
    policy.plan.skipped += 0.5
    assert policy.stop(retry_state(2, upcoming_sleep=0.5))


def test_the_verdict_rides_on_tenacitys_retry_state() -> None:
    """The attempt's exception is classified once, by the retry predicate, and the
    verdict is left on the state; a refused attempt leaves the last real one there."""
    # Private imports, by design (internal units under test): the retry verdict and an attempt's timeout error, tested directly.
    from toolhygiene._retrying import verdict_of
    from toolhygiene._running import StillRunningError

    policy = retry_policy()
    exc = _status(503)
    state = retry_state(1, exc)
    assert verdict_of(state) is None
    assert policy.retry(state)
    verdict = verdict_of(state)
    assert verdict is not None and verdict.exc is exc
    assert verdict.failure.category is th.Category.UPSTREAM
    state.set_exception((StillRunningError, StillRunningError(policy.plan.tool, 1), None))
    assert not policy.retry(state)
    assert verdict_of(state) is verdict


@pytest.mark.parametrize(("exc", "retried"), [
    (_status(503), True),
    (_status(429, {"retry-after": "1"}), True),
    (_status(429, {"retry-after": "31"}), False),  # longer than max_wait: the model's wait
    (_status(404), False),
    (ValueError("bad"), False),
])
def test_only_transient_failures_within_max_wait_are_retried(
        exc: BaseException, retried: bool) -> None:
    assert retry_policy(max_wait=30.0).retry(retry_state(1, exc)) is retried


def test_nothing_is_retried_once_the_tool_has_closed() -> None:
    closed = [False]
    policy = retry_policy(closed=lambda: closed[0])
    assert policy.retry(retry_state(1, _status(503)))
    closed[0] = True
    assert not policy.retry(retry_state(2, _status(503)))
    assert policy.stop(retry_state(2))


def test_the_attempt_timeout_is_clipped_to_what_is_left_on_the_clock() -> None:
    @th.tool(timeout=30.0)
    def slow() -> str:
        """Slow."""
        return "ok"

    clock = FakeClock()
    policy = retry_policy(slow, budget=10.0, clock=clock)
    assert policy.timeout() == 10.0
    clock.advance(9.5)
    assert policy.timeout() == 0.5


def test_deciding_writes_no_log_and_runs_nothing() -> None:
    ran: list[str] = []

    @th.tool(retries=3)
    def fetch() -> Any:
        """Fetch."""
        ran.append("fetch")
        return "ok"

    policy = retry_policy(fetch, clock=FakeClock())
    with th.testing.capture() as seen:
        state = retry_state(1, _status(503))
        policy.retry(state)
        state.upcoming_sleep = policy.wait(state)
        policy.stop(state)
        policy.timeout()
    assert seen.events == [] and ran == []
