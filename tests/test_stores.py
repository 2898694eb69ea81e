"""Counts shared through a store: one conversation served by several Sessions, threads or
processes keeps one cap, exactly; a real redis-server on 127.0.0.1 behind RedisStore."""

from __future__ import annotations

import multiprocessing
from typing import Any

import pytest
import redis

import toolhygiene as th
from helpers import failing_inventory
from toolhygiene.testing import capture


def test_a_store_needs_the_conversation_id() -> None:
    with pytest.raises(th.UsageError, match="session_id"):
        th.Session([failing_inventory()], store=th.MemoryStore())


def test_sessions_sharing_a_memory_store_share_one_cap() -> None:
    """Two Sessions of one conversation (two requests on one worker) count together: the
    third failure, whichever Session sees it, closes the tool for both."""
    store = th.MemoryStore()
    first = th.Session([failing_inventory()], store=store, session_id="conv-42")
    second = th.Session([failing_inventory()], store=store, session_id="conv-42")
    counts = [
        s.call("inventory", {"sku": f"A{n}"}).failure for n, s in enumerate([first, second, first])
    ]
    assert [f.count for f in counts if f] == [1, 2, 3]
    assert counts[2] is not None and counts[2].closes
    refused = second.call("inventory", {"sku": "B"})
    assert refused.attempts == 0 and "unavailable" in refused.content
    other = th.Session([failing_inventory()], store=store, session_id="conv-43")
    assert other.call("inventory", {"sku": "B"}).attempts == 1


def test_the_same_call_is_told_as_repeated_across_sessions() -> None:
    store = th.MemoryStore()
    one = th.Session([failing_inventory()], store=store, session_id="c", max_failures=5)
    two = th.Session([failing_inventory()], store=store, session_id="c", max_failures=5)
    one.call("inventory", {"sku": "A"})
    again = two.call("inventory", {"sku": "A"})
    assert again.failure is not None and again.failure.status == "repeated"
    assert "This exact call has now failed 2 times the same way" in again.content


def test_a_redis_client_without_socket_timeouts_is_refused(redis_url: str) -> None:
    """A Redis that stops answering must never hang the agent loop."""
    with pytest.raises(th.UsageError, match="socket_timeout"):
        th.RedisStore(redis.Redis.from_url(redis_url))
    th.RedisStore(redis.Redis.from_url(redis_url, socket_timeout=1, socket_connect_timeout=1))


def test_every_key_has_the_prefix_and_a_ttl(redis_url: str) -> None:
    store = th.RedisStore(url=redis_url, prefix="app:th:", ttl=600)
    session = th.Session([failing_inventory()], store=store, session_id="conv-42")
    for n in range(4):
        session.call("inventory", {"sku": f"A{n}"})
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    keys = client.keys("*")
    assert keys and all(str(k).startswith("app:th:{conv-42}:") for k in keys)
    assert all(0 < client.ttl(k) <= 600 for k in keys)


def _worker(url: str, start: Any, calls: int, out: Any) -> None:
    store = th.RedisStore(url=url)
    session = th.Session([failing_inventory()], store=store, session_id="conv-42")
    start.wait()
    seen = []
    for n in range(calls):
        outcome = session.call("inventory", {"sku": f"S{n}"})
        failure = outcome.failure
        assert failure is not None
        seen.append((outcome.attempts, failure.count, failure.closes, failure.status))
    out.put(seen)


def test_four_processes_on_one_conversation_hold_the_cap_exactly(redis_url: str) -> None:
    """Four worker processes fail one tool of one conversation at once: every failure is
    counted once (1, 2, 3, ... with no gap or double), the one that reaches the cap closes
    the tool, and every call started after it is refused without running."""
    context = multiprocessing.get_context("spawn")
    start, out = context.Event(), context.Queue()
    workers = [context.Process(target=_worker, args=(redis_url, start, 5, out)) for _ in range(4)]
    for worker in workers:
        worker.start()
    start.set()
    seen = [row for _ in workers for row in out.get(timeout=120)]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    ran = sorted(count for attempts, count, _, _ in seen if attempts)
    assert ran == list(range(1, len(ran) + 1)) and len(ran) >= 3
    assert all(closes == (count >= 3) for attempts, count, closes, _ in seen if attempts)
    refused = [row for row in seen if not row[0]]
    assert len(refused) == 20 - len(ran) and all(r[3] == "closed" for r in refused)
    later = th.Session([failing_inventory()], store=th.RedisStore(url=redis_url), session_id="conv-42")
    assert later.call("inventory", {"sku": "X"}).attempts == 0


def test_a_stopped_redis_fails_open_to_memory_and_comes_back(
    redis_server: Any, redis_url: str
) -> None:
    """Redis stopped mid-conversation: calls go on, counted in this process, with a
    warning event; once it is back (after retry_after) the counts go to Redis again."""
    store = th.RedisStore(url=redis_url, timeout=0.2, retry_after=0.0)
    session = th.Session([failing_inventory()], store=store, session_id="conv-7", max_failures=9)
    assert session.call("inventory", {"sku": "A"}).failure.count == 1  # type: ignore[union-attr]
    redis_server.stop()
    with capture() as seen:
        down = session.call("inventory", {"sku": "B"})
    assert down.attempts == 1 and down.failure is not None
    unavailable = seen.named("store.unavailable")
    assert unavailable and all(
        e["session.id"] == "conv-7"
        and e["on_error"] == "open"
        and e["error"] in ("ConnectionError", "TimeoutError")
        and e["message"] and "127.0.0.1" not in e["message"]  # redacted like a failure's
        for e in unavailable
    )
    redis_server.start()
    back = session.call("inventory", {"sku": "C"})
    # The restarted Redis (no persistence) lost its data: the count goes on from what this
    # worker has seen, never backwards.
    assert back.failure is not None and back.failure.count == 3
    failures = redis.Redis.from_url(redis_url).hget("toolhygiene:{conv-7}:failures", "inventory")
    assert failures == b"3"


def _echo() -> Any:
    @th.tool
    def echo(text: str) -> str:
        """Echo.

        Args:
            text: what to say.
        """
        return text

    return echo


def test_a_tool_closed_in_memory_while_redis_was_away_stays_closed_for_every_worker(
    redis_server: Any, redis_url: str
) -> None:
    """on_error="open": the failure that closes the tool is counted in memory while Redis is
    away; once Redis answers again, this worker's next round trip writes the close and the
    count back, so a new worker using only the store refuses without running, with the
    true count."""
    ran: list[str] = []

    @th.tool(max_failures=2)
    def refund(order: str) -> str:
        """Refund.

        Args:
            order: the order.
        """
        ran.append(order)
        raise th.ToolError("refund rejected", retryable=False, category="bad_request")

    store = th.RedisStore(url=redis_url, timeout=0.2, retry_after=0.0)
    a = th.Session([refund, _echo()], store=store, session_id="conv-w", max_failures=2)
    assert a.call("refund", {"order": "A1"}).failure.count == 1  # type: ignore[union-attr]
    redis_server.stop()
    closing = a.call("refund", {"order": "A2"})
    assert closing.failure is not None and closing.failure.closes
    redis_server.start()  # back, without its data
    assert a.call("echo", {"text": "hi"}).ok  # any round trip writes back first
    client = redis.Redis.from_url(redis_url)
    assert client.hget("toolhygiene:{conv-w}:closed", "refund") == b"2"
    assert client.hget("toolhygiene:{conv-w}:failures", "refund") == b"2"
    assert all(client.ttl(key) > 0 for key in client.keys("toolhygiene:{conv-w}:*"))
    b = th.Session([refund], store=store, session_id="conv-w", max_failures=2)
    refused = b.call("refund", {"order": "B1"})
    assert refused.attempts == 0 and ran == ["A1", "A2"]
    assert "refund was closed after 2 failures" in refused.content


def test_failures_counted_in_memory_while_redis_was_away_reach_redis(
    redis_server: Any, redis_url: str
) -> None:
    """A failure counted in memory during the outage is written back: another worker's
    next failure is told with the conversation's true count."""
    store = th.RedisStore(url=redis_url, timeout=0.2, retry_after=0.0)
    a = th.Session([failing_inventory(), _echo()], store=store, session_id="conv-v")
    a.call("inventory", {"sku": "A"})
    redis_server.stop()
    assert a.call("inventory", {"sku": "B"}).failure.count == 2  # type: ignore[union-attr]
    redis_server.start()
    a.call("echo", {"text": "hi"})
    other = th.Session([failing_inventory()], store=store, session_id="conv-v")
    third = other.call("inventory", {"sku": "C"})
    assert third.failure is not None and third.failure.count == 3 and third.failure.closes


def test_a_stopped_redis_fails_closed_with_a_clear_error(redis_server: Any, redis_url: str) -> None:
    store = th.RedisStore(url=redis_url, timeout=0.2, on_error="closed")
    session = th.Session([failing_inventory()], store=store, session_id="conv-8")
    redis_server.stop()
    with pytest.raises(th.StoreError, match="on_error='closed', so this call did not run"):
        session.call("inventory", {"sku": "A"})
    redis_server.start()
    assert session.call("inventory", {"sku": "A"}).attempts == 1


async def test_acall_with_a_redis_store_counts_in_redis(redis_url: str) -> None:
    """The async shell asks Redis off the event loop, and counts go to the same place."""
    store = th.RedisStore(url=redis_url)
    one = th.Session([failing_inventory()], store=store, session_id="conv-9")
    two = th.Session([failing_inventory()], store=store, session_id="conv-9")
    first = await one.acall("inventory", {"sku": "A"})
    second = await two.acall("inventory", {"sku": "A"})
    assert first.failure is not None and second.failure is not None
    assert (first.failure.count, second.failure.status) == (1, "repeated")
    assert store.counts("conv-9") == ({"inventory": 2}, set())


def test_reset_with_a_store_asks_for_a_new_session() -> None:
    """The store keeps the conversation by its id: a reset under the same id would carry
    the old conversation's closed tools into the new one."""
    session = th.Session([failing_inventory()], store=th.MemoryStore(), session_id="conv-1")
    with pytest.raises(th.UsageError, match="new Session"):
        session.reset()


def test_redis_failing_while_a_tool_runs_never_loses_its_outcome(
    redis_server: Any, redis_url: str
) -> None:
    """on_error="closed" refuses only before a call runs. Redis dying while a
    non-idempotent tool runs: the tool ran, so its real outcome is returned (counted in
    this process) and logged, and the store problem is a separate warning that says the
    call ran."""
    charges: list[int] = []

    @th.tool(retries=0, idempotent=False)
    def charge(amount: int) -> str:
        """Charge a card.

        Args:
            amount: cents.
        """
        redis_server.stop()
        charges.append(amount)
        raise th.ToolError("card declined", retryable=False, category="business")

    store = th.RedisStore(url=redis_url, timeout=0.2, on_error="closed")
    session = th.Session([charge], store=store, session_id="conv-mid")
    with capture() as seen:
        outcome = session.call("charge", {"amount": 1299})
    assert charges == [1299]
    assert outcome.failure is not None and outcome.attempts == 1
    assert "card declined" in outcome.content and outcome.failure.count == 1
    events = {e["event"]: e for e in seen.events}
    assert "card declined" in events["tool.failed"]["line"]
    assert events["store.unavailable"]["call_ran"] is True
    # Before the next call Redis is still down: that call is refused and never runs.
    with pytest.raises(th.StoreError, match="did not run"):
        session.call("charge", {"amount": 1})
    assert charges == [1299]


def test_redis_failing_while_an_upstream_tool_runs_keeps_its_outcome(
    redis_server: Any, redis_url: str
) -> None:
    """The breaker's report after the call (a transient failure of the upstream) is an
    after-run write too: the failure the tool raised reaches the model."""

    @th.tool(retries=0, upstream="inventory service")
    def stock(sku: str) -> str:
        """Check stock.

        Args:
            sku: the item.
        """
        redis_server.stop()
        raise ConnectionRefusedError(111, "Connection refused")

    store = th.RedisStore(url=redis_url, timeout=0.2, on_error="closed")
    session = th.Session([stock], store=store, session_id="conv-up")
    with capture() as seen:
        outcome = session.call("stock", {"sku": "A"})
    assert outcome.failure is not None and outcome.attempts == 1
    assert outcome.failure.category.value == "connectivity"
    assert [e["call_ran"] for e in seen.events if e["event"] == "store.unavailable"] == [True]


class _Refusing:
    """A Store of the user's own that fails closed on every write: after-run writes must
    not lose the outcome either."""

    def __init__(self) -> None:
        self.inner = th.MemoryStore()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def failed(self, *args: Any, **kwargs: Any) -> Any:
        raise th.StoreError("the store is read-only")


def test_a_custom_store_failing_after_the_call_keeps_the_outcome() -> None:
    session = th.Session([failing_inventory()], store=_Refusing(), session_id="conv-c")
    with capture() as seen:
        outcome = session.call("inventory", {"sku": "A"})
    assert outcome.failure is not None and "no item A is listed" in outcome.content
    warned = [e for e in seen.events if e["event"] == "store.unavailable"]
    assert warned and warned[0]["call_ran"] is True


@pytest.mark.parametrize("on_error", ["open", "closed"])
def test_redis_error_replies_go_through_on_error(redis_url: str, on_error: Any) -> None:
    """An error reply (here OOM: maxmemory reached; READONLY, NOPERM are the same family)
    is a store failure like a dead socket, never an exception out of call(): open goes on
    in memory; closed refuses before the call runs (its start counts the call: a write)."""
    admin = redis.Redis.from_url(redis_url)
    store = th.RedisStore(url=redis_url, on_error=on_error)
    session = th.Session([failing_inventory()], store=store, session_id="conv-oom")
    admin.config_set("maxmemory", 1)
    try:
        with capture() as seen:
            if on_error == "closed":
                with pytest.raises(th.StoreError, match=r"OutOfMemoryError.*did not run"):
                    session.call("inventory", {"sku": "A"})
            else:
                outcome = session.call("inventory", {"sku": "A"})
                assert outcome.failure is not None and outcome.attempts == 1
    finally:
        admin.config_set("maxmemory", 0)
    errors = [e["error"] for e in seen.events if e["event"] == "store.unavailable"]
    assert errors == ["OutOfMemoryError"]
    assert session.stats()["failures"] == ({} if on_error == "closed" else {"inventory": 1})


def test_a_permission_error_before_the_call_fails_closed(redis_url: str) -> None:
    admin = redis.Redis.from_url(redis_url)
    store = th.RedisStore(url=redis_url, on_error="closed")
    session = th.Session([failing_inventory()], store=store, session_id="conv-acl")
    admin.execute_command("ACL", "SETUSER", "default", "-hget")  # type: ignore[no-untyped-call]
    try:
        with pytest.raises(th.StoreError, match=r"(NoPermissionError|ResponseError).*did not run"):
            session.call("inventory", {"sku": "A"})
    finally:
        admin.execute_command("ACL", "SETUSER", "default", "+hget")  # type: ignore[no-untyped-call]


@pytest.mark.parametrize(
    "arguments",
    [{"retry_after": -1.0}, {"prefix": None}, {"timeout": 0}, {"timeout": float("nan")}],
)
def test_redis_store_arguments_are_checked(redis_url: str, arguments: Any) -> None:
    with pytest.raises(th.UsageError):
        th.RedisStore(url=redis_url, **arguments)


async def test_acall_asks_redis_outside_asyncio_default_executor(redis_url: str) -> None:
    """The store's round trips run on toolhygiene's own workers: an application whose
    default executor is busy (here its one thread waits for the end of the test) still
    gets its calls through."""
    import asyncio
    import concurrent.futures
    import threading

    loop = asyncio.get_running_loop()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    loop.set_default_executor(pool)
    release = threading.Event()
    busy = loop.run_in_executor(None, release.wait)
    try:
        session = th.Session([failing_inventory()], store=th.RedisStore(url=redis_url), session_id="c-x")
        outcome = await asyncio.wait_for(session.acall("inventory", {"sku": "A"}), 30)
        assert outcome.failure is not None and outcome.failure.count == 1
    finally:
        release.set()
        await busy
        pool.shutdown()


def test_store_unavailable_message_is_written_as_a_failure_message_is() -> None:
    from toolhygiene import _stores

    said = (
        "Error 111 connecting to redis-master.payments.corp.internal:6379, "
        "auth AKIAUS3CJJALA6MHI22K\n\x1b[31mred"
    )
    with capture() as seen:
        _stores.failed_after_run("conv-1", "pay", ConnectionRefusedError(said))
    [event] = seen.named("store.unavailable")
    failure = th.classify(ConnectionRefusedError(said), "pay")
    assert event["message"] == failure.message  # one rule for every failure message
    for raw in ("corp.internal", "AKIAUS3CJJALA6MHI22K", "\n", "\x1b"):
        assert raw not in event["message"]
    assert event["call_ran"] is True and event["error"] == "ConnectionRefusedError"
