"""A call refused because earlier runs are still going made no attempt and says so: the
words are true (it did not run; an earlier run may have taken effect), and a burst of
calls of a hung tool holds at most ``max_running`` threads per tool and four times that
per session."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import toolhygiene as th
from helpers import HUNG, Ran

# Private imports, by design (internal units under test): toolhygiene's own worker pool, to wait for abandoned runs.
from toolhygiene._workers import workers


def _hung(gate: threading.Event, ran: Ran, name: str, **options: Any) -> th.Tool[Any, Any]:
    @th.tool(name=name, retries=0, **options)
    def hung() -> str:
        ran(name)
        gate.wait(60)
        return "late"

    return hung


def _tool_threads() -> int:
    return sum(t.name == "toolhygiene-worker" for t in threading.enumerate())


async def test_a_burst_of_a_hung_sync_tool_holds_at_most_max_running_threads(
    gate: threading.Event,
) -> None:
    ran = Ran()
    session = th.Session([_hung(gate, ran, "hang", timeout=HUNG)], max_failures=1000,
                         max_stuck=1000, max_running=8)
    before = workers.started
    outcomes = await asyncio.gather(*(session.acall("hang") for _ in range(300)))
    assert ran.count("hang") == 8 and workers.started - before <= 8
    refused = [o for o in outcomes if o.attempts == 0]
    assert len(refused) == 292
    for outcome in refused:
        assert outcome.failure is not None and outcome.failure.refused
        assert "8 calls of hang are still running, the most allowed at once" in outcome.content
        assert "This call did not run." in outcome.content and "Transient" not in outcome.content
    assert session.stats()["failures"] == {"hang": 8}
    gate.set()


def test_the_session_bound_holds_across_tools(gate: threading.Event) -> None:
    """With ``max_running=2`` the session runs at most 8 at once, whatever the tool."""
    ran = Ran()
    tools = [_hung(gate, ran, f"t{n}", timeout=HUNG) for n in range(6)]
    session = th.Session(tools, max_failures=100, max_stuck=100, max_running=2)
    outcomes = [session.call(f"t{n}") for n in range(6) for _ in range(3)]
    assert sum(ran.count(f"t{n}") for n in range(6)) == 8
    session_refusals = [o for o in outcomes if "tool calls of this conversation" in o.content]
    per_tool = [o for o in outcomes if "calls of t" in o.content and "the most" in o.content
                and o not in session_refusals]
    assert len(session_refusals) == 6 and len(per_tool) == 4
    assert all(o.attempts == 0 for o in session_refusals + per_tool)
    gate.set()


def test_runs_in_flight_are_released_when_they_end(gate: threading.Event) -> None:
    ran = Ran()
    session = th.Session([_hung(gate, ran, "hang", timeout=HUNG)], max_failures=100,
                         max_stuck=100, max_running=1)
    assert "did not finish" in session.call("hang").content
    assert session.call("hang").attempts == 0
    gate.set()
    for _ in range(2000):
        if not session._runs.running:
            break
        threading.Event().wait(0.005)
    assert session.call("hang").ok and ran.count("hang") == 2


@pytest.mark.parametrize("idempotent", [True, False])
def test_a_stuck_refusal_made_no_attempt_and_says_what_is_true(
    gate: threading.Event, idempotent: bool
) -> None:
    ran = Ran()
    tool = _hung(gate, ran, "pay", timeout=HUNG, idempotent=idempotent)
    session = th.Session([tool], max_failures=10, max_stuck=1)
    with th.testing.capture() as seen:
        first = session.call("pay")
        refused = session.call("pay")
    assert first.attempts == 1 and refused.attempts == 0 and ran.count("pay") == 1
    assert refused.content.startswith("[error] pay: ")
    assert "This call did not run." in refused.content
    assert "Transient" not in refused.content and "a retry may succeed" not in refused.content
    if idempotent:
        assert "1 earlier call of pay timed out and is still running" in refused.content
    else:
        assert "may still be running; it may have taken effect" in refused.content
        assert "Check whether the last call took effect before calling pay again" in refused.content
    (event,) = seen.named("tool.refused")
    assert event["reason"] == "stuck" and event["attempts"] == 0
    assert session.stats()["failures"] == {"pay": 1}


def test_a_closed_refusal_made_no_attempt(gate: threading.Event) -> None:
    @th.tool(retries=0)
    def broken() -> None:
        raise th.ToolError("down", retryable=False)

    session = th.Session([broken], max_failures=1)
    assert session.call("broken").attempts == 1
    closed = session.call("broken")
    assert closed.attempts == 0 and "this call did not run" in closed.content
    assert "Transient" not in closed.content
