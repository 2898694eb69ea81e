"""Tails kept in a store name the call that failed: ``error.recovered``,
``error.stopped`` and ``stats()["tails"]`` carry the failing call's id whichever worker
tells the tail, with a ``MemoryStore``, a ``RedisStore`` and a store of the user's own;
an error an older version left in Redis (no id) is still read."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhygiene as th
from helpers import examples, store_tools

# Private imports, by design (internal units under test): the store's waiting record.
from toolhygiene._stores import Waiting
from toolhygiene.testing import capture


class JsonStore(th.MemoryStore):
    """A store of the user's own that keeps each waiting error as JSON text, as one
    over a database would: what it gives back is rebuilt from what it wrote."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[str, list[str]] = {}

    def start(self, session: str, tool: str, *, known: int, upstream: str | None) -> Any:
        started = super().start(session, tool, known=known, upstream=upstream)
        waiting = any(Waiting(*json.loads(t)).tool == tool for t in self.kept.get(session, []))
        return started._replace(waiting=waiting)

    def wait(self, session: str, error: Waiting) -> None:
        self.kept.setdefault(session, []).append(json.dumps(list(error)))

    def recovered(self, session: str, tool: str) -> list[Waiting]:
        mine = [Waiting(*json.loads(t)) for t in self.kept.get(session, [])]
        self.kept[session] = [json.dumps(list(w)) for w in mine if w.tool != tool]
        return [w for w in mine if w.tool == tool]

    def ended(self, session: str) -> tuple[int, list[Waiting]]:
        calls, _ = super().ended(session)
        return calls, [Waiting(*json.loads(t)) for t in self.kept.pop(session, [])]


@pytest.fixture(params=["memory", "redis", "custom"])
def make_store(request: Any) -> Callable[[], th.Store]:
    if request.param == "memory":
        return th.MemoryStore
    if request.param == "custom":
        return JsonStore
    url = request.getfixturevalue("redis_url")  # a real redis-server, started for the run
    return lambda: th.RedisStore(url=url)


def _workers(make_store: Callable[[], th.Store], conversation: str) -> tuple[Any, Any, Any]:
    store = make_store()
    tools, up = store_tools()
    one = th.Session(tools, store=store, session_id=conversation)
    return one, th.Session(tools, store=store, session_id=conversation), up


def test_a_recovered_tail_names_the_call_that_failed_on_another_worker(
    make_store: Callable[[], th.Store],
) -> None:
    a, b, up = _workers(make_store, "conv-id1")
    with capture() as seen:
        assert not a.call("inventory", {"sku": "A"}, call_id="toolu_failed").ok
        up["inventory"] = True
        assert b.call("inventory", {"sku": "A"}, call_id="toolu_fixed").ok
    recovered = seen.named("error.recovered")
    assert [(e["call_id"], e["recovered_by"]) for e in recovered] == [
        ("toolu_failed", "toolu_fixed")
    ]
    tails = b.stats()["tails"]
    assert [(t["call_id"], t["recovered_by"], t["outcome"]) for t in tails] == [
        ("toolu_failed", "toolu_fixed", "recovered")
    ]


def test_a_stopped_tail_names_the_call_that_failed_on_another_worker(
    make_store: Callable[[], th.Store],
) -> None:
    a, b, _ = _workers(make_store, "conv-id2")
    with capture() as seen:
        a.call("inventory", {"sku": "A"}, call_id="toolu_1")
        b.call("inventory", {"sku": "B"})  # no id given: its tail names none
        b.close()  # the conversation ends here: every worker's errors
        a.close()
    stopped = sorted((e.get("call_id") or "", e["tail"]) for e in seen.named("error.stopped"))
    assert stopped == [("", 0), ("toolu_1", 1)]
    assert sorted(t["call_id"] or "" for t in b.stats()["tails"]) == ["", "toolu_1"]


def test_an_error_an_older_version_left_in_redis_is_read_without_an_id(redis_url: str) -> None:
    import redis

    store = th.RedisStore(url=redis_url)
    tools, up = store_tools()
    session = th.Session(tools, store=store, session_id="conv-old")
    client = redis.Redis.from_url(redis_url)
    # What the older format wrote: the same script's hash, five items, no call id.
    waiting, waiting_tools = (
        store.key("conv-old", "waiting"),
        store.key("conv-old", "waiting:tools"),
    )
    client.hset(waiting, "1", json.dumps([1, "inventory", "not_found", "abc123", "inventory: x"]))
    client.hincrby(waiting_tools, "inventory", 1)
    client.set(store.key("conv-old", "calls"), 1)
    up["inventory"] = True
    with capture() as seen:
        assert session.call("inventory", {"sku": "A"}, call_id="toolu_now").ok
    [event] = seen.named("error.recovered")
    assert (event.get("call_id"), event["recovered_by"], event["line"]) == (
        None,
        "toolu_now",
        "inventory: x",
    )


_IDS = st.none() | st.text(max_size=40)


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(ids=st.lists(_IDS, min_size=1, max_size=4))
def test_every_kept_error_comes_back_with_its_call_id(
    make_store: Callable[[], th.Store], ids: list[str | None]
) -> None:
    store = make_store()
    session = f"conv-prop-{id(ids)}"
    kept = [Waiting(n, "inventory", "not_found", "f", f"line {n}", i) for n, i in enumerate(ids)]
    for error in kept:
        store.wait(session, error)
    assert sorted(store.recovered(session, "inventory")) == sorted(kept)
    for error in kept:
        store.wait(session, error)
    assert sorted(store.ended(session)[1]) == sorted(kept)
