"""A failure no local retry can follow is told without entering tenacity: the tool has
no retries, the failure is not retryable, or the retry budget is spent. What the model
reads is the same line a retry loop that stopped at once gives."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

import toolhygiene as th


@contextmanager
def tenacity_frames() -> Iterator[list[str]]:
    """The names of tenacity's functions that ran in this thread within the block (a
    profile hook: what ran, not what a mock says)."""
    seen: list[str] = []

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and "tenacity" in frame.f_code.co_filename:
            seen.append(frame.f_code.co_name)

    sys.setprofile(hook)
    try:
        yield seen
    finally:
        sys.setprofile(None)


def _refusing(retries: int) -> Any:
    @th.tool(retries=retries)
    def get_order(order_id: str) -> str:
        """Fetch one order.

        Args:
            order_id: the order.
        """
        raise ConnectionRefusedError(111, "Connection refused")

    return get_order


@th.tool
def missing(order_id: str) -> str:
    """Fetch one order.

    Args:
        order_id: the order.
    """
    raise th.ToolError(f"no order {order_id}", retryable=False, category="not_found")


@pytest.mark.parametrize(
    "make",
    [
        lambda: th.Session([_refusing(0)]),  # no retries
        lambda: th.Session([missing]),  # not retryable
        # The least budget there is (one attempt): after the first attempt less is left.
        lambda: th.Session([_refusing(2)], retry_budget=0.25),
    ],
    ids=["no-retries", "not-retryable", "budget-spent"],
)
def test_a_failure_no_retry_can_follow_enters_no_retry_loop(
    make: Callable[[], th.Session], instant: None
) -> None:
    session = make()
    name = next(iter(session.tools))
    with tenacity_frames() as seen:
        outcome = session.call(name, {"order_id": "ORD-1"}, call_id="toolu_1")
    assert seen == []
    assert outcome.failure is not None and outcome.attempts == 1
    assert outcome.content.startswith(f"[error] {name}: ")
    assert session.stats()["local_retries"] == 0


def test_a_retryable_failure_still_retries_through_tenacity(instant: None) -> None:
    session = th.Session([_refusing(2)])
    with tenacity_frames() as seen:
        outcome = session.call("get_order", {"order_id": "ORD-1"})
    assert seen != []
    assert outcome.attempts == 3
    assert session.stats()["local_retries"] == 2
