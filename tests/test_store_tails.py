"""Tails through a store: an error's tail counts every call of its conversation after
it, whichever Session (worker) made them, and is told once, by the worker whose success
recovered it or whose close ended the conversation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import toolhygiene as th
from helpers import store_tools
from toolhygiene.testing import capture


def _two_workers(
    make_store: Callable[[], th.Store], conversation: str
) -> tuple[th.Session, th.Session, dict[str, bool]]:
    """Two Sessions of one conversation sharing one store, as two workers would."""
    store = make_store()
    tools, up = store_tools()
    one = th.Session(tools, store=store, session_id=conversation)
    return one, th.Session(tools, store=store, session_id=conversation), up


def _told(seen: Any, event: str) -> list[tuple[str, int]]:
    return [(e["tool"], e["tail"]) for e in seen.events if e["event"] == event]


def test_a_tail_counts_the_calls_made_on_another_worker(
    make_store: Callable[[], th.Store],
) -> None:
    a, b, up = _two_workers(make_store, "conv-t1")
    with capture() as seen:
        assert a.call("inventory", {"sku": "A"}).failure is not None  # call 1
        b.call("ping")  # 2
        b.call("ping")  # 3
        a.call("ping")  # 4
        up["inventory"] = True
        assert b.call("inventory", {"sku": "A"}).ok  # 5: recovers A's error
        assert a.call("inventory", {"sku": "A"}).ok  # 6: nothing left to recover
    assert _told(seen, "error.recovered") == [("inventory", 4)]
    assert b.stats()["tails"][0]["outcome"] == "recovered"


def test_an_error_left_waiting_ends_with_the_conversation_counted_everywhere(
    make_store: Callable[[], th.Store],
) -> None:
    a, b, _ = _two_workers(make_store, "conv-t2")
    with capture() as seen:
        a.call("inventory", {"sku": "A"})  # 1
        b.call("ping")  # 2
        b.call("inventory", {"sku": "B"})  # 3
        b.call("ping")  # 4
        a.close()  # the conversation ends: both errors, whoever saw them
        b.close()  # already told: nothing twice
    assert sorted(_told(seen, "error.stopped")) == [("inventory", 1), ("inventory", 3)]
