"""RedisStore on a ``redis.asyncio`` client: the async shell (``acall``, ``ahandle``,
``async with``) counts in Redis through the same scripts as a sync client, with the same
prefix, TTLs, timeouts and on_error; sync ``call`` on such a store is one clear
UsageError. A real redis-server on 127.0.0.1."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis
import redis.asyncio

import toolhygiene as th
from helpers import failing_inventory
from toolhygiene.testing import capture, model_turn


def _store(url: str, **options: Any) -> th.RedisStore:
    client = redis.asyncio.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
    return th.RedisStore(client, **options)


async def test_acall_counts_in_redis_with_the_prefix_and_a_ttl(redis_url: str) -> None:
    store = _store(redis_url, prefix="app:", ttl=600)
    one = th.Session([failing_inventory()], store=store, session_id="conv-a")
    two = th.Session([failing_inventory()], store=store, session_id="conv-a")
    first = await one.acall("inventory", {"sku": "A"})
    second = await two.acall("inventory", {"sku": "A"})
    assert first.failure is not None and second.failure is not None
    counted = (first.failure.count, second.failure.count, second.failure.status)
    assert counted == (1, 2, "repeated")
    sync = redis.Redis.from_url(redis_url, decode_responses=True)
    assert sync.hget("app:{conv-a}:failures", "inventory") == "2"
    keys = sync.keys("*")
    assert keys and all(str(k).startswith("app:{conv-a}:") for k in keys)
    assert all(0 < sync.ttl(k) <= 600 for k in keys)


async def _worker(url: str, calls: int, start: asyncio.Event) -> list[tuple[int, int, bool, str]]:
    session = th.Session([failing_inventory()], store=_store(url), session_id="conv-42")
    await start.wait()
    seen: list[tuple[int, int, bool, str]] = []
    for n in range(calls):
        outcome = await session.acall("inventory", {"sku": f"S{n}"})
        failure = outcome.failure
        assert failure is not None
        seen.append((outcome.attempts, failure.count, failure.closes, failure.status))
    return seen


async def test_four_asyncio_sessions_on_one_conversation_hold_the_cap_exactly(
    redis_url: str,
) -> None:
    """Four Sessions, each with its own asyncio client (four workers' worth), fail one
    tool of one conversation at once: every failure counted once, no gap or double, the
    one reaching the cap closes the tool, every call started after it is refused."""
    start = asyncio.Event()
    running = [asyncio.ensure_future(_worker(redis_url, 5, start)) for _ in range(4)]
    start.set()
    seen = [row for rows in await asyncio.gather(*running) for row in rows]
    ran = sorted(count for attempts, count, _, _ in seen if attempts)
    assert ran == list(range(1, len(ran) + 1)) and len(ran) >= 3
    assert all(closes == (count >= 3) for attempts, count, closes, _ in seen if attempts)
    refused = [row for row in seen if not row[0]]
    assert len(refused) == 20 - len(ran) and all(r[3] == "closed" for r in refused)
    later = th.Session([failing_inventory()], store=_store(redis_url), session_id="conv-42")
    assert (await later.acall("inventory", {"sku": "X"})).attempts == 0


def test_sync_call_on_an_asyncio_store_is_one_clear_error(redis_url: str) -> None:
    runs = []

    @th.tool
    def lookup(sku: str) -> str:
        """Look up.

        Args:
            sku: the item.
        """
        runs.append(sku)
        return sku

    session = th.Session([lookup], store=_store(redis_url), session_id="conv-s")
    with pytest.raises(th.UsageError) as raised:
        session.call("lookup", {"sku": "A"})
    assert "redis.asyncio client: use acall/ahandle" in str(raised.value)
    assert "\n" not in str(raised.value) and runs == []


@pytest.mark.parametrize("on_error", ["open", "closed"])
async def test_a_stopped_redis_behaves_as_with_a_sync_client(
    redis_server: Any, redis_url: str, on_error: Any
) -> None:
    store = _store(redis_url, on_error=on_error, retry_after=0.0)
    session = th.Session([failing_inventory()], store=store, session_id="conv-d", max_failures=9)
    assert (await session.acall("inventory", {"sku": "A"})).failure.count == 1  # type: ignore[union-attr]
    redis_server.stop()
    try:
        with capture() as seen:
            if on_error == "closed":
                with pytest.raises(th.StoreError, match="so this call did not run"):
                    await asyncio.wait_for(session.acall("inventory", {"sku": "B"}), 30)
            else:
                down = await asyncio.wait_for(session.acall("inventory", {"sku": "B"}), 30)
                assert down.attempts == 1 and down.failure is not None
                assert down.failure.count == 2
    finally:
        redis_server.start()
    unavailable = seen.named("store.unavailable")
    assert unavailable and all(
        e["error"] in ("ConnectionError", "TimeoutError") for e in unavailable
    )
    back = await session.acall("inventory", {"sku": "C"})
    assert back.failure is not None and back.failure.count == (3 if on_error == "open" else 2)


async def test_async_with_tells_tails_through_the_asyncio_client(
    redis_url: str,
) -> None:
    """An error, two other calls, and the conversation ends under ``async with``: its
    tail (stopped, 2 calls) comes from Redis, counted through the asyncio client."""
    calls = []

    @th.tool
    def ping() -> str:
        """Ping."""
        calls.append(1)
        return "pong"

    with capture() as seen:
        async with th.Session(
            [failing_inventory(), ping], store=_store(redis_url), session_id="conv-t"
        ) as session:
            await session.acall("inventory", {"sku": "A"})
            await session.acall("ping", {})
            await session.acall("ping", {})
    stopped = [e for e in seen.events if e["event"] == "error.stopped"]
    assert calls == [1, 1]
    assert [(e["tool"], e["tail"]) for e in stopped] == [("inventory", 2)]


async def test_ahandle_runs_a_turn_s_parallel_calls_through_the_asyncio_client(
    redis_url: str,
) -> None:
    """Three calls of one turn, gathered by ``ahandle``: each counted once in Redis, the
    third closing the tool at its cap of 3, and the results appended to the list."""
    store = _store(redis_url)
    session = th.Session([failing_inventory()], store=store, session_id="conv-h")
    messages: list[dict[str, Any]] = [{"role": "user", "content": "stock?"}]
    calls = [("inventory", {"sku": s}) for s in ("A", "B", "C")]
    step = await session.ahandle(model_turn("anthropic", calls), messages, format="anthropic")
    assert step  # the loop goes on: the model reads the failures
    results = messages[-1]["content"]
    assert [r["is_error"] for r in results] == [True, True, True]
    sync = redis.Redis.from_url(redis_url, decode_responses=True)
    assert sync.hget("toolhygiene:{conv-h}:failures", "inventory") == "3"
    assert sync.hget("toolhygiene:{conv-h}:closed", "inventory") == "3"


def test_one_store_serves_one_event_loop_after_another(redis_url: str) -> None:
    """An asyncio client's connections belong to the loop that made them: a store used by
    a second ``asyncio.run`` (the first one closed) starts afresh instead of failing."""
    store = _store(redis_url)
    session = th.Session([failing_inventory()], store=store, session_id="conv-l")
    counts = []
    for sku in ("A", "B", "C"):
        outcome = asyncio.run(session.acall("inventory", {"sku": sku}))
        assert outcome.failure is not None
        counts.append(outcome.failure.count)
    assert counts == [1, 2, 3]
