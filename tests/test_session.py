"""Session: caps in code, the same-failure breaker, local retries, timeouts, logs, tails."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

import toolhygiene as th
from helpers import NO_KEYS, Call
from toolhygiene.testing import ScriptedServer, closed_port


def not_found(order_id: str) -> th.ToolError:
    return th.ToolError(f"no order with id {order_id} exists", retryable=False,
                        category="not_found", instead="use search_orders to find it")


def test_success_outcome(call: Callable[[th.Session], Call]) -> None:
    @th.tool
    def get_order(order_id: str) -> dict[str, Any]:
        return {"id": order_id, "total": 12.5}

    outcome = call(th.Session([get_order]))("get_order", {"order_id": "ORD-1"})
    assert outcome.ok and outcome.failure is None and outcome.attempts == 1
    assert outcome.value == {"id": "ORD-1", "total": 12.5}
    assert outcome.content == '{"id": "ORD-1", "total": 12.5}'


def test_empty_is_a_success_that_says_retrying_will_not_help(
        call: Callable[[th.Session], Call]) -> None:
    @th.tool
    def search_orders(customer: str) -> th.Empty:
        return th.Empty(f"orders of customer {customer}")

    session = th.Session([search_orders])
    outcome = call(session)("search_orders", {"customer": "C-1"})
    assert outcome.ok and outcome.content.startswith("[empty] search_orders:")
    assert session.stats()["failures"] == {}


def test_cap_closes_the_tool_and_it_no_longer_runs(call: Callable[[th.Session], Call]) -> None:
    runs = []

    @th.tool
    def get_order(order_id: str) -> None:
        runs.append(order_id)
        raise not_found(order_id)

    session = th.Session([get_order], max_failures=2)
    run = call(session)
    first, second, third = (run("get_order", {"order_id": f"ORD-{i}"}) for i in range(3))
    assert "Not transient" in first.content
    assert second.content == (
        "[error] get_order: not_found. no order with id ORD-1 exists. get_order has failed 2 "
        "times in this conversation and is now closed: do not call it again. Use search_orders "
        "to find it.")
    assert third.content == (
        "[error] get_order: unavailable. get_order was closed after 2 failures in this "
        "conversation; this call did not run. Continue without it, or tell the user what you "
        "could not do.")
    assert runs == ["ORD-0", "ORD-1"]
    assert third.attempts == 0
    assert session.stats()["closed"] == ["get_order"]


def test_per_tool_cap_overrides_the_session(call: Callable[[th.Session], Call]) -> None:
    @th.tool(max_failures=1)
    def fragile() -> None:
        raise ValueError("bad")

    @th.tool
    def sturdy() -> None:
        raise ValueError("bad")

    session = th.Session([fragile, sturdy], max_failures=3)
    run = call(session)
    assert run("fragile").failure.closes
    assert "unavailable" in run("fragile").content
    assert [run("sturdy").failure.closes for _ in range(3)] == [False, False, True]


def test_successes_do_not_reset_the_cap(call: Callable[[th.Session], Call]) -> None:
    state = {"fail": True}

    @th.tool
    def flip(x: int) -> str:
        if x < 0:
            raise ValueError(f"x must be positive, got {x}")
        return "ok"

    session = th.Session([flip], max_failures=2)
    run = call(session)
    run("flip", {"x": -1})
    assert run("flip", {"x": 1}).ok
    assert run("flip", {"x": -2}).failure.closes
    assert "unavailable" in run("flip", {"x": 1}).content
    del state


def test_same_failure_with_other_arguments_says_so_and_no_more(
        call: Callable[[th.Session], Call]) -> None:
    """C-9 and C-7 failing alike proves nothing about C-1: no claim about the future."""
    @th.tool
    def get_order(order_id: str) -> None:
        raise not_found(order_id)

    session = th.Session([get_order], max_failures=5)
    run = call(session)
    run("get_order", {"order_id": "ORD-1"})
    second = run("get_order", {"order_id": "ORD-2"})
    assert second.failure.status == "similar" and second.failure.repeats == 2
    assert ("2 calls with different arguments failed the same way: the approach, not the "
            "argument, may be wrong.") in second.content
    assert "will fail again" not in second.content and "exact" not in second.content
    third = run("get_order", '{"order_id": "ORD-2"}')  # the exact same call, as JSON
    assert third.failure.status == "repeated" and third.failure.repeats == 2
    assert "This exact call has now failed 2 times the same way: do not repeat it." in (
        third.content)


def test_different_failures_are_not_repeats(call: Callable[[th.Session], Call]) -> None:
    @th.tool
    def parse(text: str) -> int:
        return NO_KEYS[text] if not text else int(text)

    session = th.Session([parse], max_failures=5)
    run = call(session)
    run("parse", {"text": "x"})
    assert run("parse", {"text": ""}).failure.status == "failed"


def test_attempted_call_is_recorded_and_redacted(call: Callable[[th.Session], Call]) -> None:
    @th.tool
    def login(user: str, password: str) -> None:
        raise PermissionError(13, "Permission denied")

    outcome = call(th.Session([login]))("login", {"user": "ann@example.com", "password": "hunter2"})
    attempted = outcome.failure.to_dict()["attempted_query"]
    assert attempted == {"tool": "login", "arguments": {"user": "ann@example.com",
                                                        "password": "[redacted:secret]"}}


# -- local retries through a real HTTP server --------------------------------------------

def test_transient_blip_is_retried_locally_and_never_seen(
        server: ScriptedServer, call: Callable[[th.Session], Call], instant: None) -> None:
    server.push(503, "<html>busy</html>")
    server.push(502, "<html>bad gateway</html>")
    server.push(200, {"stock": 4})

    @th.tool(retries=2)
    def check_stock(sku: str) -> Any:
        response = httpx.get(f"{server.url}/stock/{sku}", timeout=5)
        response.raise_for_status()
        return response.json()

    session = th.Session([check_stock])
    with th.testing.capture() as seen:
        outcome = call(session)("check_stock", {"sku": "A-1"})
    assert outcome.ok and outcome.value == {"stock": 4} and outcome.attempts == 3
    assert seen.contents == ['{"stock": 4}']
    assert len(seen.named("tool.retry")) == 2
    assert session.stats()["local_retries"] == 2
    assert session.stats()["failures"] == {}


def test_retries_exhausted_reach_the_model_once(
        server: ScriptedServer, call: Callable[[th.Session], Call], instant: None) -> None:
    for _ in range(3):
        server.push(503, "<html>down</html>")

    @th.tool(retries=2)
    def check_stock() -> Any:
        httpx.get(server.url, timeout=5).raise_for_status()

    session = th.Session([check_stock])
    outcome = call(session)("check_stock")
    assert outcome.attempts == 3
    assert outcome.content.startswith("[error] check_stock: upstream. the service answered HTTP 503")
    assert session.stats()["failures"] == {"check_stock": 1}
    assert len(server.requests) == 3


def test_retry_after_is_honoured(server: ScriptedServer, call: Callable[[th.Session], Call]) -> None:
    server.push(429, {}, {"retry-after": "0.2"})
    server.push(200, {"ok": True})

    @th.tool
    def fetch() -> Any:
        response = httpx.get(server.url, timeout=5)
        response.raise_for_status()
        return response.json()

    with th.testing.capture() as seen, th.testing.instant_retries():
        outcome = call(th.Session([fetch]))("fetch")
    assert outcome.ok
    assert [e["wait"] for e in seen.named("tool.retry")] == [0.2]  # the header's, not backoff
    assert len(server.requests) == 2


def test_retry_after_beyond_max_wait_goes_to_the_model(
        server: ScriptedServer, call: Callable[[th.Session], Call]) -> None:
    server.push(429, {}, {"retry-after": "120"})

    @th.tool
    def fetch() -> Any:
        httpx.get(server.url, timeout=5).raise_for_status()

    outcome = call(th.Session([fetch], max_wait=5))("fetch")
    assert outcome.attempts == 1 and len(server.requests) == 1
    assert "Transient: retry after 120 s." in outcome.content


def test_non_transient_failures_are_not_retried(
        server: ScriptedServer, call: Callable[[th.Session], Call], instant: None) -> None:
    server.push(404, {})

    @th.tool(retries=3)
    def fetch() -> Any:
        httpx.get(server.url, timeout=5).raise_for_status()

    assert call(th.Session([fetch]))("fetch").attempts == 1
    assert len(server.requests) == 1


def test_not_idempotent_is_not_retried_after_a_timeout(
        server: ScriptedServer, call: Callable[[th.Session], Call], instant: None) -> None:
    server.push(200, {}, delay=0.6)

    @th.tool(idempotent=False, retries=3)
    def charge_card() -> Any:
        return httpx.post(server.url + "/charge", timeout=0.2).json()

    outcome = call(th.Session([charge_card]))("charge_card")
    assert outcome.attempts == 1
    assert outcome.failure.category is th.Category.CONNECTIVITY
    assert len(server.requests) == 1


def test_not_idempotent_is_retried_when_the_call_never_ran(
        server: ScriptedServer, call: Callable[[th.Session], Call], instant: None) -> None:
    urls = [f"http://127.0.0.1:{closed_port()}/charge", server.url + "/charge"]
    server.push(200, {"charged": True})

    @th.tool(idempotent=False, retries=2)
    def charge_card() -> Any:
        return httpx.post(urls.pop(0), timeout=2).json()

    outcome = call(th.Session([charge_card]))("charge_card")
    assert outcome.ok and outcome.attempts == 2
    assert len(server.requests) == 1


def test_retry_budget_stops_local_retries(call: Callable[[th.Session], Call]) -> None:
    """Waits of 0.2 s against a budget of 0.5 s: the second wait would leave less than
    LEAST_ATTEMPT. The budget's clock never moves and the waits are skipped (instant
    retries count them as passed): no real clock, whatever the machine's load."""
    from helpers import FakeClock

    runs = []

    @th.tool(retries=50)
    def flaky() -> None:
        runs.append(1)
        raise ConnectionResetError(104, "Connection reset by peer")

    session = th.Session([flaky], retry_budget=0.5, max_wait=0.2)
    session._clock = FakeClock()
    with th.testing.instant_retries():
        outcome = call(session)("flaky")
    assert not outcome.ok
    assert len(runs) == 2  # the budget, not the 50 retries, ended it
    assert outcome.attempts == len(runs)


# -- timeouts ------------------------------------------------------------------------------

def test_async_tool_timeout_is_enforced() -> None:
    cancelled = []

    @th.tool(timeout=0.1, retries=0)
    async def slow() -> str:
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return "late"

    outcome = asyncio.run(th.Session([slow]).acall("slow"))
    assert outcome.content.startswith("[error] slow: connectivity. slow did not finish within 0.1 s.")
    assert cancelled == [True]


def stuck_tool() -> tuple[th.Tool[[], str], threading.Event, threading.Event]:
    """A sync tool that blocks until released, and says when it finished."""
    release, finished = threading.Event(), threading.Event()

    @th.tool(timeout=0.1, retries=0)
    def slow() -> str:
        release.wait(60)  # a guard against hanging the suite, never reached when it passes
        finished.set()
        return "late"

    return slow, release, finished


def test_sync_tool_timeout_is_enforced_in_a_worker_thread() -> None:
    """The call returns at the deadline while the function is still blocked; released,
    the function runs on to its end in the background."""
    slow, release, finished = stuck_tool()
    outcome = th.Session([slow]).call("slow")
    assert not finished.is_set()
    release.set()
    assert "slow did not finish within 0.1 s" in outcome.content
    assert finished.wait(60)


def test_sync_tool_timeout_is_enforced_through_acall() -> None:
    slow, release, finished = stuck_tool()

    async def run() -> th.Outcome:
        outcome = await th.Session([slow]).acall("slow")
        assert not finished.is_set()
        release.set()  # before asyncio.run waits for its worker threads
        return outcome

    outcome = asyncio.run(run())
    assert "slow did not finish within 0.1 s" in outcome.content
    assert finished.wait(60)


async def test_sync_tools_run_off_the_event_loop() -> None:
    loop_thread = threading.get_ident()

    @th.tool
    def where() -> int:
        return threading.get_ident()

    outcome = await th.Session([where]).acall("where")
    assert outcome.value != loop_thread


def test_async_tool_through_sync_call() -> None:
    @th.tool
    async def ping() -> str:
        return "pong"

    assert th.Session([ping]).call("ping").value == "pong"


async def test_async_tool_through_sync_call_inside_a_loop_is_a_usage_error() -> None:
    @th.tool
    async def ping() -> str:
        return "pong"

    with pytest.raises(th.UsageError, match="use acall"):
        th.Session([ping]).call("ping")


# -- concurrency ---------------------------------------------------------------------------

async def test_a_thousand_concurrent_calls_keep_exact_counts() -> None:
    @th.tool
    async def echo(i: int) -> int:
        await asyncio.sleep(0)
        if i % 10 == 0:
            raise ValueError(f"{i} is a multiple of ten")
        return i

    session = th.Session([echo], max_failures=10_000)
    outcomes = await asyncio.gather(*(session.acall("echo", {"i": i}) for i in range(1000)))
    stats = session.stats()
    assert stats["calls"] == 1000
    assert stats["successes"] == 900 == sum(o.ok for o in outcomes)
    assert stats["failures"] == {"echo": 100}


async def test_a_burst_is_told_the_truth_about_every_call() -> None:
    """Calls that started before the tool closed ran: each is told as the failure it was,
    with the closing notice, never "did not run"; calls after the close do not run."""
    ran: list[int] = []

    started = asyncio.Event()

    @th.tool(max_failures=3)
    async def broken(i: int) -> None:
        ran.append(i)
        if len(ran) == 1000:
            started.set()
        await asyncio.wait_for(started.wait(), 30)  # every call has started before any fails
        raise ValueError("always broken")

    session = th.Session([broken])
    outcomes = await asyncio.gather(*(session.acall("broken", {"i": i}) for i in range(1000)))
    assert len(ran) == 1000 == session.stats()["failures"]["broken"]
    assert not any("did not run" in o.content for o in outcomes)
    closing = [o for o in outcomes if o.failure is not None and o.failure.closes]
    assert len(closing) == 998  # the third failure closed it; the rest ran and failed too
    assert all("is now closed: do not call it again" in o.content for o in closing)
    later = await session.acall("broken", {"i": -1})
    assert "this call did not run" in later.content and len(ran) == 1000


def test_eight_threads_keep_exact_counts() -> None:
    @th.tool
    def work(i: int) -> int:
        if i % 4 == 0:
            raise ValueError("no multiples of four")
        return i

    session = th.Session([work], max_failures=1_000_000)
    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(lambda i: session.call("work", {"i": i}), range(4000)))
    assert session.stats()["calls"] == 4000
    assert session.stats()["failures"] == {"work": 1000}
    assert sum(o.ok for o in outcomes) == 3000


# -- logs, tails, stats ----------------------------------------------------------------------

def test_every_failure_is_logged_with_its_full_traceback(call: Callable[[th.Session], Call]) -> None:
    @th.tool
    def read(path: str) -> str:
        with open(path) as handle:
            return handle.read()

    with th.testing.capture() as seen:
        call(th.Session([read]))("read", {"path": "/home/alice/missing.txt"})
    [event] = seen.named("tool.failed")
    assert event["category"] == "not_found" and event["tool"] == "read"
    assert event["fingerprint"] and event["retryable"] is False
    assert "Traceback (most recent call last)" in event["exception"]
    assert "in read" in event["exception"]
    assert "alice" not in event["exception"]


def test_log_redaction_can_be_turned_off(
    call: Callable[[th.Session], Call], caplog: pytest.LogCaptureFixture
) -> None:
    @th.tool
    def read(path: str) -> str:
        with open(path) as handle:
            return handle.read()

    caplog.set_level("INFO", logger="toolhygiene")
    with th.configure(redact_logs=False), th.testing.capture() as seen:
        outcome = call(th.Session([read]))("read", {"path": "/home/alice/missing.txt"})
    # This call's record only: a tool a test before left running may log from its worker.
    [record] = [
        r for r in caplog.records
        if r.name == "toolhygiene" and r.exc_text
        and getattr(r, "toolhygiene", {}).get("tool") == "read"
    ]
    assert "alice" in str(record.exc_text)  # the logs: raw, as asked
    assert "alice" in record.toolhygiene["exception"]  # type: ignore[attr-defined]
    # A switch of the logs alone: capture() (a hook) and the model's line stay redacted.
    assert "alice" not in seen.named("tool.failed")[0]["exception"]
    assert "alice" not in outcome.content


def test_tail_is_measured_until_recovery(call: Callable[[th.Session], Call]) -> None:
    @th.tool
    def get_order(order_id: str) -> str:
        if order_id != "ORD-3":
            raise not_found(order_id)
        return "found"

    session = th.Session([get_order], max_failures=5)
    run = call(session)
    with th.testing.capture() as seen:
        for order in ("ORD-1", "ORD-2", "ORD-3"):
            run("get_order", {"order_id": order})
    tails = [(e["tail"], e["outcome"]) for e in seen.named("error.recovered")]
    assert tails == [(2, "recovered"), (1, "recovered")]
    assert session.stats()["pending"] == 0


def test_close_records_tails_of_errors_never_recovered(call: Callable[[th.Session], Call]) -> None:
    @th.tool
    def broken() -> None:
        raise ValueError("no")

    with th.testing.capture() as seen:
        with th.Session([broken], max_failures=5) as session:
            run = call(session)
            run("broken")
            run("broken")
            run("broken")
    assert [e["tail"] for e in seen.named("error.stopped")] == [2, 1, 0]
    assert seen.named("session.closed")
    assert [t["outcome"] for t in session.stats()["tails"]] == ["stopped"] * 3


def test_closed_tool_is_logged(call: Callable[[th.Session], Call]) -> None:
    @th.tool(max_failures=1)
    def broken() -> None:
        raise ValueError("no")

    session = th.Session([broken])
    with th.testing.capture() as seen:
        call(session)("broken")
    [failed] = seen.named("tool.failed")
    assert seen.named("tool.closed") == [
        {"event": "tool.closed", "tool": "broken", "failures": 1, "log_level": "warning",
         "session.id": session.id, "category": "bad_request",
         "fingerprint": failed["fingerprint"]}]


def test_instant_retries_restores_the_previous_setting() -> None:
    def instant() -> bool:
        return th.configure().instant_retries  # configure() with nothing to change reads

    assert instant() is False
    with th.testing.instant_retries():
        assert instant() is True
        with th.testing.instant_retries(False):
            assert instant() is False
        assert instant() is True
    assert instant() is False


def test_advice_precedence(call: Callable[[th.Session], Call]) -> None:
    """The ToolError's own advice, then a rule's hint, then the tool's default."""

    @th.tool(instead="ask the user for the order id",
             rules=[th.Rule(KeyError, th.Category.NOT_FOUND, hint="Search the catalogue first.")])
    def lookup(kind: str) -> None:
        if kind == "own":
            raise th.ToolError("no such order", retryable=False, instead="use search_orders")
        if kind == "rule":
            raise KeyError(kind)
        raise ValueError("bad")

    run = call(th.Session([lookup], max_failures=10))
    assert run("lookup", {"kind": "own"}).content.endswith("Use search_orders.")
    assert run("lookup", {"kind": "rule"}).content.endswith("Search the catalogue first.")
    assert run("lookup", {"kind": "other"}).content.endswith("Ask the user for the order id.")
