"""Helpers for testing code that uses toolhygiene: no sleeping, and what the model saw.

::

    with th.testing.instant_retries(), th.testing.capture() as seen:
        outcome = session.call("get_order", {"order_id": "ORD-1"})
    assert seen.contents == [outcome.content]
    assert seen.events[0]["event"] == "tool.failed"
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import structlog.testing

from toolhygiene import _config, _observe
from toolhygiene._scripted import Event, Reply, ScriptedServer, Seen, closed_port
from toolhygiene._turns import model_turn, stream_events

__all__ = [
    "Captured",
    "Event",
    "Reply",
    "ScriptedServer",
    "Seen",
    "capture",
    "closed_port",
    "instant_retries",
    "model_turn",
    "stream_events",
]


@contextmanager
def instant_retries(enabled: bool = True) -> Iterator[None]:
    """Local retries do not sleep inside the block; the previous setting comes back after."""
    previous = _config.settings.instant_retries
    _config.settings.instant_retries = enabled
    try:
        yield
    finally:
        _config.settings.instant_retries = previous


@dataclass
class Captured:
    """What was captured: every ``Outcome`` and toolhygiene's log events."""

    outcomes: list[Any] = field(default_factory=list)
    events: list[MutableMapping[str, Any]] = field(default_factory=list)

    @property
    def contents(self) -> list[str]:
        """Exactly the texts the model saw, in order."""
        return [o.content for o in self.outcomes]

    def named(self, event: str) -> list[MutableMapping[str, Any]]:
        """The log events with this name (``tool.failed``, ``tool.retry``, ...)."""
        return [e for e in self.events if e.get("event") == event]


@contextmanager
def capture() -> Iterator[Captured]:
    """Capture what the model saw and the log events inside the block."""
    captured = Captured()
    stop = _observe.watch(captured.outcomes.append)
    try:
        with structlog.testing.capture_logs() as events:
            captured.events = events
            yield captured
    finally:
        stop()
