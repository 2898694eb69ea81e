"""Breakers across conversations: an upstream that keeps failing is known to every
conversation sharing the store; its calls are refused locally with a true line, one caller
probes it once its window has passed, and an answer closes the breaker."""

from __future__ import annotations

import copy
import multiprocessing
import socket
import threading
import time
from typing import Any

import pytest

import toolhygiene as th
from helpers import FakeClock
from toolhygiene.testing import closed_port, model_turn


def _frozen(store: th.MemoryStore) -> FakeClock:
    """The store's breakers read a clock that moves only when the test moves it."""
    clock = FakeClock()
    store.breakers._clock = clock
    return clock


def _inventory(port: int | None = None, gate: threading.Event | None = None,
               entered: threading.Event | None = None) -> Any:
    """A tool whose upstream is down (a real refused connection) unless ``port`` is
    ``None`` and then it answers, after ``gate`` if given (``entered`` is set once a call
    is inside it)."""
    @th.tool(upstream="inventory service", retries=0)
    def check_stock(sku: str) -> int:
        """Units in stock.

        Args:
            sku: the item.
        """
        if port is not None:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        if entered is not None:
            entered.set()
        if gate is not None:
            gate.wait(30)
        return 3

    return check_stock


def test_an_upstream_failing_in_two_conversations_is_refused_in_a_third() -> None:
    store = th.MemoryStore(breaker_after=2, breaker_window=60)
    down = _inventory(closed_port())
    for conversation in ("conv-1", "conv-2"):
        outcome = th.Session([down], store=store, session_id=conversation).call(
            "check_stock", {"sku": "A"})
        assert outcome.attempts == 1 and outcome.failure is not None
        assert outcome.failure.category is th.Category.CONNECTIVITY
    third = th.Session([down], store=store, session_id="conv-3")
    refused = third.call("check_stock", {"sku": "A"})
    assert refused.attempts == 0 and refused.failure is not None
    assert refused.content.startswith(
        "[error] check_stock: upstream. inventory service has failed 2 calls in a row over "
        "the last ")
    assert "s; this call did not run. Transient: retry after " in refused.content
    assert refused.content.endswith(
        "Continue without it meanwhile, or tell the user it is unavailable.")
    assert third.stats()["failures"] == {}  # the refusal spends no failure budget


def test_failures_of_one_conversation_are_not_told_as_across_conversations() -> None:
    """Every failure came from one conversation: the refusal elsewhere says how many
    calls failed and since when, never that they came from several conversations."""
    store = th.MemoryStore(breaker_after=3, breaker_window=60)
    down = _inventory(closed_port())
    one = th.Session([down], store=store, session_id="conv-1", max_failures=5)
    for _ in range(3):
        assert one.call("check_stock", {"sku": "A"}).attempts == 1
    refused = th.Session([down], store=store, session_id="conv-2").call(
        "check_stock", {"sku": "A"})
    assert refused.attempts == 0
    assert "inventory service has failed 3 calls in a row over the last " in refused.content
    assert "conversations" not in refused.content


def test_a_429_with_retry_after_opens_it_at_once_for_that_long() -> None:
    @th.tool(upstream="search api", retries=0)
    def search(q: str) -> str:
        """Search.

        Args:
            q: the query.
        """
        raise th.ToolError("search api answered 429 Too Many Requests", retryable=True,
                           category="rate_limit", retry_after=40)

    store = th.MemoryStore(breaker_after=5)
    first = th.Session([search], store=store, session_id="a").call("search", {"q": "x"})
    assert first.attempts == 1
    refused = th.Session([search], store=store, session_id="b").call("search", {"q": "y"})
    assert refused.attempts == 0 and refused.failure is not None
    assert refused.failure.retry_after is not None and 30 < refused.failure.retry_after <= 40


def test_one_caller_probes_after_the_window_and_an_answer_closes_it() -> None:
    """Once the window has passed, the first caller runs (the probe); while it runs the
    others are refused and told so; its success ends the outage for everyone."""
    store = th.MemoryStore(breaker_after=1, breaker_window=60)
    clock = _frozen(store)
    th.Session([_inventory(closed_port())], store=store, session_id="a").call(
        "check_stock", {"sku": "A"})
    clock.advance(61)  # the window passes
    gate, entered = threading.Event(), threading.Event()
    healthy = _inventory(gate=gate, entered=entered)
    probe = th.Session([healthy], store=store, session_id="b")
    result: list[th.Outcome] = []
    runner = threading.Thread(target=lambda: result.append(probe.call("check_stock", {"sku": "A"})))
    runner.start()
    other = th.Session([healthy], store=store, session_id="c")
    assert entered.wait(30), "the probe never reached the tool"  # a guard, not a measurement
    refused = other.call("check_stock", {"sku": "B"})  # the probe holds the upstream
    assert "another call is testing whether it is back" in refused.content, refused.content
    assert refused.attempts == 0
    gate.set()
    runner.join(30)
    assert result[0].ok and result[0].attempts == 1
    assert other.call("check_stock", {"sku": "C"}).ok


def test_a_failed_probe_opens_it_again() -> None:
    store = th.MemoryStore(breaker_after=1, breaker_window=60)
    clock = _frozen(store)
    down = _inventory(closed_port())
    th.Session([down], store=store, session_id="a").call("check_stock", {"sku": "A"})
    clock.advance(61)  # the window passes
    probe = th.Session([down], store=store, session_id="b").call("check_stock", {"sku": "A"})
    assert probe.attempts == 1
    refused = th.Session([down], store=store, session_id="c").call("check_stock", {"sku": "A"})
    assert refused.attempts == 0 and "2 calls in a row" in refused.content


@pytest.mark.parametrize("fmt", ["anthropic", "openai_chat", "openai_responses"])
def test_a_resumed_session_does_not_count_a_refusal(fmt: str) -> None:
    store = th.MemoryStore(breaker_after=1)
    down = _inventory(closed_port())
    th.Session([down], store=store, session_id="a").call("check_stock", {"sku": "A"})
    session, messages = th.Session([down], store=store, session_id="b"), [
        {"role": "user", "content": "stock?"}]
    session.handle(model_turn(fmt, [("check_stock", {"sku": "A"})]), messages, format=fmt)  # type: ignore[arg-type]
    resumed = th.Session([down]).resume(copy.deepcopy(messages))
    assert resumed.stats()["failures"] == session.stats()["failures"] == {}


def _fail_twice(url: str, port: int, done: Any) -> None:
    store = th.RedisStore(url=url, breaker_after=2, breaker_window=600)
    for conversation in ("w-1", "w-2"):
        th.Session([_inventory(port)], store=store, session_id=conversation).call(
            "check_stock", {"sku": "A"})
    done.put(True)


def test_an_outage_seen_by_one_process_is_known_to_another(redis_url: str) -> None:
    """Redis-shared: a worker process sees the upstream fail twice; this process, serving
    another conversation, is refused without calling it."""
    context = multiprocessing.get_context("spawn")
    done = context.Queue()
    worker = context.Process(target=_fail_twice, args=(redis_url, closed_port(), done))
    worker.start()
    assert done.get(timeout=120)
    worker.join(120)
    assert worker.exitcode == 0
    store = th.RedisStore(url=redis_url, breaker_after=2, breaker_window=600)
    here = th.Session([_inventory()], store=store, session_id="here")
    refused = here.call("check_stock", {"sku": "A"})
    assert refused.attempts == 0
    assert "inventory service has failed 2 calls in a row over the last" in refused.content


def test_a_redis_breaker_lets_one_probe_through_after_its_window(redis_url: str) -> None:
    store = th.RedisStore(url=redis_url, breaker_after=1, breaker_window=0.3)
    th.Session([_inventory(closed_port())], store=store, session_id="a").call(
        "check_stock", {"sku": "A"})
    assert store.admit("inventory service", 60).state == "open"
    time.sleep(0.4)  # the window passes (Redis's own clock decides)
    assert store.admit("inventory service", 60).state == "probe"
    assert store.admit("inventory service", 60).state == "probing"  # one caller only
    store.upstream_ok("inventory service")
    here = th.Session([_inventory()], store=store, session_id="b")
    assert here.call("check_stock", {"sku": "A"}).attempts == 1


def test_while_one_caller_probes_the_wait_told_is_until_its_answer_is_due() -> None:
    """The probe is one attempt (no local retries), held for the tool's timeout: another
    caller meanwhile is told to retry after what is left of it, not the retry budget."""
    store = th.MemoryStore(breaker_after=1, breaker_window=60)
    clock = _frozen(store)
    th.Session([_inventory(closed_port())], store=store, session_id="a").call(
        "check_stock", {"sku": "A"})
    clock.advance(61)  # the window passes
    gate, entered = threading.Event(), threading.Event()

    @th.tool(upstream="inventory service", retries=3, timeout=4)
    def check_stock(sku: str) -> int:
        """Units in stock.

        Args:
            sku: the item.
        """
        entered.set()
        gate.wait(30)
        raise ConnectionResetError(104, "Connection reset by peer")

    probe = th.Session([check_stock], store=store, session_id="b", retry_budget=120)
    result: list[th.Outcome] = []
    runner = threading.Thread(target=lambda: result.append(probe.call("check_stock", {"sku": "A"})))
    runner.start()
    other = th.Session([check_stock], store=store, session_id="c", retry_budget=120)
    assert entered.wait(30), "the probe never reached the tool"  # a guard, not a measurement
    refused = other.call("check_stock", {"sku": "B"})  # the probe holds the upstream
    gate.set()
    assert "another call is testing whether it is back" in refused.content, refused.content
    runner.join(30)
    assert refused.failure is not None and refused.failure.retry_after is not None
    assert 0 < refused.failure.retry_after <= 4  # the probe's timeout, not the 120 s budget
    assert "Transient: retry after " in refused.content
    assert result[0].attempts == 1  # the probe made one attempt: no local retries
    reopened = other.call("check_stock", {"sku": "C"})
    assert reopened.attempts == 0 and "2 calls in a row" in reopened.content


def test_a_redis_probe_is_held_for_what_it_asked(redis_url: str) -> None:
    store = th.RedisStore(url=redis_url, breaker_after=5, breaker_window=600)
    store.upstream_failed("search api", retry_after=0.001)  # a 429: open for 1 ms only
    time.sleep(0.05)
    assert store.admit("search api", 2.5).state == "probe"
    probing = store.admit("search api", 2.5)
    assert probing.state == "probing" and 2.0 < probing.wait <= 2.5
