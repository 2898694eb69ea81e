"""The retry budget is a deadline the whole call keeps, every wait is at most max_wait
with its jitter, and a burst of calls to a failing tool does not multiply its retries.
Real clients (httpx) against the local scripted server raise the errors."""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

import httpx
import pytest

import toolhygiene as th
from helpers import Ran
from toolhygiene.testing import ScriptedServer, closed_port


def test_retry_after_that_would_pass_the_deadline_is_not_waited(
        server: ScriptedServer) -> None:
    """Retry-After 0.5 s and a budget of 0.95 s: one wait fits (and leaves more than
    LEAST_ATTEMPT for the retry), a second would end past the deadline (two waits are
    1 s), so the call stops after two requests and the model sees the wait. The budget's
    clock is a fake that never moves and no wait is slept (instant retries count each
    wait against the budget as if it had passed), so the machine's load cannot change
    the outcome and nothing sleeps."""
    from helpers import FakeClock

    for _ in range(5):
        server.push(429, {"error": "slow down"}, {"retry-after": "0.5"})
    client = httpx.Client(timeout=5)

    @th.tool(retries=5)
    def fetch() -> Any:
        return client.get(server.url).raise_for_status().json()

    session = th.Session([fetch], retry_budget=0.95)
    session._clock = FakeClock()
    with th.testing.instant_retries(), th.testing.capture() as seen:
        outcome = session.call("fetch")
    client.close()
    assert len(server.requests) == 2 and outcome.attempts == 2
    assert [e["wait"] for e in seen.named("tool.retry")] == [0.5]
    assert "retry after 0.5 s" in outcome.content


def _clipped_timeout(budget: float) -> str:
    """The seconds a 30 s attempt timeout is shown as, clipped by ``budget``."""
    gate = threading.Event()

    @th.tool(timeout=30.0, retries=0)
    def stuck() -> str:
        gate.wait(30)
        return "late"

    try:
        outcome = th.Session([stuck], retry_budget=budget).call("stuck")
    finally:
        gate.set()
    found = re.search(r"did not finish within (\S+) s", outcome.content)
    assert found is not None
    return found.group(1)


def test_attempt_timeout_is_clipped_to_what_is_left_of_the_budget() -> None:
    assert float(_clipped_timeout(0.3)) <= 0.3


def test_every_wait_is_at_most_max_wait_jitter_included() -> None:
    port = closed_port()

    @th.tool(retries=6)
    def connect() -> Any:
        return httpx.get(f"http://127.0.0.1:{port}/", timeout=5)

    with th.testing.capture() as seen:
        outcome = th.Session([connect], max_wait=0.01, retry_budget=30).call("connect")
    waits = [e["wait"] for e in seen.named("tool.retry")]
    assert outcome.attempts == 7 and len(waits) == 6
    assert all(0 <= w <= 0.01 for w in waits)


@pytest.mark.parametrize("max_wait", [0.001, 0.3, 2.0])
def test_wait_is_clamped_after_the_jitter(max_wait: float, monkeypatch: Any) -> None:
    """With the jitter at its largest, the wait is still max_wait at most."""
    import random

    from helpers import retry_policy, retry_state

    monkeypatch.setattr(random, "uniform", lambda low, high: high)
    policy = retry_policy(max_wait=max_wait)
    for attempt in range(1, 12):
        assert policy.wait(retry_state(attempt)) <= max_wait


async def test_a_burst_to_a_failing_tool_does_not_multiply_its_retries() -> None:
    """1,000 concurrent calls: every call's first attempt reaches the upstream (they all
    began before any failure was known), but at most max_failures calls retry, and none
    after the tool closed."""
    upstream = Ran()

    @th.tool(retries=2)
    async def flaky() -> Any:
        upstream("request")
        response = httpx.Response(503, request=httpx.Request("GET", "https://api.example.com"))
        return response.raise_for_status()

    session = th.Session([flaky], max_failures=2, max_wait=0.01)
    outcomes = await asyncio.gather(*(session.acall("flaky") for _ in range(1000)))
    assert upstream.count("request") <= 1000 + 2 * 2
    assert session.stats()["closed"] == ["flaky"]
    assert not any(o.ok for o in outcomes)
    assert sum(o.attempts for o in outcomes) == upstream.count("request")


def test_no_local_retry_after_the_tool_closed_in_threads() -> None:
    upstream = Ran()

    @th.tool(retries=3)
    def flaky() -> Any:
        upstream("request")
        response = httpx.Response(503, request=httpx.Request("GET", "https://api.example.com"))
        return response.raise_for_status()

    session = th.Session([flaky], max_failures=2, max_wait=0.01)
    threads = [threading.Thread(target=session.call, args=("flaky",)) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert upstream.count("request") <= 50 + 2 * 3


@pytest.mark.parametrize(("value", "shown"), [
    (0.07399999, "0.074"), (0.0004, "0.001"), (0.05, "0.05"), (0.5, "0.5"), (0.9996, "1"),
    (1.0, "1"), (2.54, "2.5"), (7.0, "7"), (9.96, "10"), (119.6, "120"), (0.0, "0"),
])
def test_durations_read_the_same_everywhere(value: float, shown: str) -> None:
    # Private imports, by design (internal units under test): the words of the budget notice and the least attempt time, compared as written.
    from toolhygiene import _words

    assert _words.seconds(value) == shown
    assert _words.rounded(value) == round(value, 3)
    line = _words.timed_out("t", value, started=True, still_running=False)
    assert line == f"t did not finish within {shown} s"


def test_a_clipped_timeout_is_shown_rounded() -> None:
    assert re.fullmatch(r"0\.\d{1,3}", _clipped_timeout(0.274))


def test_no_retry_starts_with_less_than_the_least_attempt_left() -> None:
    """A budget of 0.3 s and a first attempt that takes 0.1 s: 0.2 s would be left, less
    than LEAST_ATTEMPT, so the transient failure goes to the model after one attempt."""
    from toolhygiene._retrying import LEAST_ATTEMPT

    ran = Ran()
    port = closed_port()

    @th.tool(retries=3)
    def connect() -> Any:
        ran("connect")
        threading.Event().wait(0.1)
        return httpx.get(f"http://127.0.0.1:{port}/", timeout=5)

    assert LEAST_ATTEMPT > 0.3 - 0.1
    with th.testing.instant_retries(), th.testing.capture() as seen:
        outcome = th.Session([connect], retry_budget=0.3).call("connect")
    assert ran.count("connect") == 1 and outcome.attempts == 1
    assert "connectivity" in outcome.content and not seen.named("tool.retry")
    with th.testing.instant_retries():
        roomy = th.Session([connect], retry_budget=30).call("connect")
    assert roomy.attempts == 4


def test_log_waits_are_rounded_to_the_millisecond() -> None:
    port = closed_port()

    @th.tool(retries=3)
    def connect() -> Any:
        return httpx.get(f"http://127.0.0.1:{port}/", timeout=5)

    with th.testing.capture() as seen:
        th.Session([connect], max_wait=0.0123456, retry_budget=30).call("connect")
    waits = [e["wait"] for e in seen.named("tool.retry")]
    assert waits and all(w == round(w, 3) for w in waits)
