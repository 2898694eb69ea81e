"""A call that may still be running is never started again; cancelling the caller cancels
the tool; one hung tool cannot make another fail; nothing blocks interpreter exit.

Tools here block on events, released by the test: the timeouts are real but short, and
no test asserts how long anything took."""

from __future__ import annotations

import asyncio
import concurrent.futures
import subprocess
import sys
import textwrap
import threading
from typing import Any

import pytest

import toolhygiene as th
from helpers import HUNG, Ran

# Private imports, by design (internal units under test): toolhygiene's own worker threads.
from toolhygiene._workers import Workers
from toolhygiene.formats import check
from toolhygiene.testing import model_turn


def _blocking(gate: threading.Event, ran: Ran, name: str, **options: Any) -> th.Tool[Any, Any]:
    """A sync tool that blocks until the gate opens, counting its starts."""

    @th.tool(name=name, **options)
    def block() -> str:
        ran(name)
        gate.wait(30)
        return "late"

    return block


def _finished(ran: Ran, what: str, count: int) -> None:
    """Wait (bounded) until ``what`` has happened ``count`` times on a worker."""
    for _ in range(2000):
        if ran.count(what) >= count:
            return
        threading.Event().wait(0.005)
    raise AssertionError(f"{what} happened {ran.count(what)} times, not {count}")


def test_a_non_idempotent_call_still_running_is_never_started_again(
        gate: threading.Event) -> None:
    ran = Ran()

    @th.tool(timeout=HUNG, idempotent=False, retries=3)
    def charge(amount: int) -> str:
        ran("started")
        gate.wait(30)
        ran("charged")
        return "charged"

    session = th.Session([charge], max_failures=5)
    first = session.call("charge", {"amount": 5})
    assert first.attempts == 1 and "is still running" in first.content
    assert "Check whether it took effect" in first.content
    refused = session.call("charge", {"amount": 5})
    assert "may still be running; it may have taken effect. This call did not run." in refused.content
    assert refused.attempts == 0
    assert ran.count("started") == 1  # the refused call never ran
    gate.set()
    _finished(ran, "charged", 1)
    _finished_runs(session)
    assert session.call("charge", {"amount": 5}).ok
    assert ran.count("started") == 2 and ran.count("charged") == 2


def _finished_runs(session: th.Session) -> None:
    for _ in range(2000):
        if not session._runs.going:
            return
        threading.Event().wait(0.005)
    raise AssertionError(f"runs still going: {session._runs.going}")


def test_an_idempotent_attempt_still_running_is_not_retried_locally(
        gate: threading.Event) -> None:
    ran = Ran()
    lookup = _blocking(gate, ran, "lookup", timeout=HUNG, retries=3)
    with th.testing.instant_retries():
        outcome = th.Session([lookup]).call("lookup")
    assert outcome.attempts == 1 and ran.count("lookup") == 1


def test_an_idempotent_tool_is_refused_once_max_stuck_runs_are_going(
        gate: threading.Event) -> None:
    ran = Ran()
    hang = _blocking(gate, ran, "hang", timeout=HUNG, retries=0)
    session = th.Session([hang], max_failures=10, max_stuck=2)
    contents = [session.call("hang").content for _ in range(4)]
    assert ran.count("hang") == 2
    assert "2 earlier calls of hang timed out and are still running" in contents[2]
    assert session.stats()["failures"] == {"hang": 2}  # the refused calls did not run


def test_an_attempt_no_worker_took_is_cancelled_not_run_late() -> None:
    """Workers hand a job over through a queue; a job cancelled before a worker took it
    never runs, even when a worker comes for it afterwards."""
    ran = Ran()
    workers = Workers()
    workers.submit(ran, "first").result(timeout=30)  # one worker now idle on the queue
    with workers._lock:  # submit's hand-over, with the job cancelled before it is taken
        workers._idle -= 1
        late: concurrent.futures.Future[Any] = concurrent.futures.Future()
        assert late.cancel()
        workers._jobs.put((late, ran, ("late",)))
    workers.submit(ran, "second").result(timeout=30)
    assert ran.count("late") == 0 and ran.count("second") == 1


def _waiting(ran: Ran, started: asyncio.Semaphore, timeout: float | None) -> th.Tool[Any, Any]:
    """An async tool that waits forever, counting its starts, cancels and ends."""

    @th.tool(timeout=timeout)
    async def slow(n: int = 0) -> str:
        ran("started")
        started.release()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            ran("cancelled")
            raise
        ran("finished")
        return "never"

    return slow


@pytest.mark.parametrize("timeout", [None, 30.0])
async def test_cancelling_acall_cancels_an_async_tool(timeout: float | None) -> None:
    ran = Ran()
    started = asyncio.Semaphore(0)
    task = asyncio.ensure_future(th.Session([_waiting(ran, started, timeout)]).acall("slow"))
    await started.acquire()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0)
    assert ran.count("cancelled") == 1 and ran.count("finished") == 0


async def test_cancelling_ahandle_cancels_every_parallel_call() -> None:
    ran = Ran()
    started = asyncio.Semaphore(0)
    slow = _waiting(ran, started, 30.0)
    messages: list[Any] = [{"role": "user", "content": "go"}]
    turn = model_turn("anthropic", [("slow", {"n": n}) for n in range(5)])
    task = asyncio.ensure_future(th.Session([slow]).ahandle(turn, messages))
    for _ in range(5):
        await started.acquire()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(3):
        await asyncio.sleep(0)
    assert ran.count("cancelled") == 5 and ran.count("finished") == 0
    assert len(messages) == 1


async def test_a_sync_tool_cancelled_in_acall_counts_as_still_running(
        gate: threading.Event) -> None:
    ran = Ran()
    entered = threading.Event()

    @th.tool(idempotent=False)
    def send() -> str:
        ran("started")
        entered.set()
        gate.wait(30)
        ran("sent")
        return "sent"

    session = th.Session([send])
    task = asyncio.ensure_future(session.acall("send"))
    await asyncio.to_thread(entered.wait, 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    refused = await session.acall("send")
    assert "This call did not run." in refused.content and refused.attempts == 0
    assert ran.count("started") == 1


def test_a_hung_tool_does_not_make_a_healthy_one_fail(gate: threading.Event) -> None:
    ran = Ran()
    hung = _blocking(gate, ran, "hung", timeout=HUNG, retries=0)

    @th.tool(timeout=30)
    def healthy() -> str:
        ran("healthy")
        return "fine"

    session = th.Session([hung, healthy], max_failures=10)
    for _ in range(5):
        session.call("hung")
    outcomes = [session.call("healthy") for _ in range(5)]
    assert all(o.ok for o in outcomes) and ran.count("healthy") == 5
    assert "healthy" not in session.stats()["failures"]
    names = {t.name: t.daemon for t in threading.enumerate() if t.name == "toolhygiene-worker"}
    assert names == {"toolhygiene-worker": True}


async def test_a_hung_tool_leaves_asyncio_default_executor_free(gate: threading.Event) -> None:
    hung = _blocking(gate, Ran(), "hung", timeout=HUNG, retries=0)
    session = th.Session([hung], max_failures=50, max_stuck=50)
    await asyncio.gather(*(session.acall("hung") for _ in range(40)))
    # The default executor has at most 32 threads: had the tool used it, this would wait.
    assert await asyncio.wait_for(asyncio.to_thread(lambda: "free"), timeout=30) == "free"


EXIT_SCRIPT = """
import asyncio, time
import structlog
import toolhygiene as th
structlog.configure(processors=[lambda *a: (_ for _ in ()).throw(structlog.DropEvent)])

@th.tool(timeout=0.05, retries=0)
def hung() -> str:
    time.sleep(600)
    return "late"

session = th.Session([hung])
print(session.call("hung").content)
print(asyncio.run(session.acall("hung")).content)
print("done")
"""


def test_hung_sync_tools_do_not_delay_exit() -> None:
    """The process ends although two runs of a tool sleeping 600 s are still going; the
    subprocess timeout only keeps a broken build from hanging the suite."""
    result = subprocess.run([sys.executable, "-c", EXIT_SCRIPT], capture_output=True, check=False,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "done"


KEYBOARD_SCRIPT = """
import asyncio
import structlog
import toolhygiene as th
structlog.configure(processors=[lambda *a: (_ for _ in ()).throw(structlog.DropEvent)])

@th.tool(timeout=5)
async def interrupted() -> str:
    raise KeyboardInterrupt

try:
    asyncio.run(th.Session([interrupted]).acall("interrupted"))
except KeyboardInterrupt:
    print("interrupted")
import gc
gc.collect()
"""


def test_keyboard_interrupt_in_a_tool_with_a_timeout_is_not_reported_unretrieved() -> None:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(KEYBOARD_SCRIPT)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.stdout.strip() == "interrupted"
    assert "never retrieved" not in result.stderr, result.stderr


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
def test_parallel_round_with_a_hung_call_stays_valid(fmt: str, gate: threading.Event) -> None:
    hung = _blocking(gate, Ran(), "hung", timeout=HUNG, retries=0)

    @th.tool
    def quick() -> str:
        return "ok"

    messages: list[Any] = [{"role": "user", "content": "go"}]
    session = th.Session([hung, quick])
    session.handle(model_turn(fmt, [("hung", {}), ("quick", {})]), messages,
                   format=fmt)  # type: ignore[arg-type]
    check(messages, fmt)
