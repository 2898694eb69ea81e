"""Helpers for testing code that uses toolhygiene: no sleeping, and what the model saw.

::

    with th.testing.instant_retries(), th.testing.capture() as seen:
        outcome = session.call("get_order", {"order_id": "ORD-1"})
    assert seen.contents == [outcome.content]
    assert seen.events[0]["event"] == "tool.failed"
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from toolhygiene import _config, _observe, _surface
from toolhygiene._log import traceback_text
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
    """Local retries do not sleep inside the block; the previous setting comes back after.

    Each wait is still decided and logged with its length, and the retry budget counts it
    as if it had passed: a test sees the attempts that production would make."""
    made = _config.change(None, {"instant_retries": enabled})
    try:
        yield
    finally:
        made.__exit__()


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


class _Recorder(_observe.Hooks):
    """Hooks that keep every outcome and every event, as its log line's fields."""

    def __init__(self, captured: Captured) -> None:
        self.captured = captured

    def on_outcome(self, call: _observe.Call, outcome: Any) -> None:
        if outcome is not None:
            self.captured.outcomes.append(outcome)

    def on_failure(self, event: _observe.Event) -> None:
        event.settle()  # made before any hook runs when someone listens; here otherwise
        record = event.record()
        record["log_level"] = logging.getLevelName(event.level).lower()
        if event.exc is not None and "exception" not in record:
            record["exception"] = traceback_text(event.exc)
        self.captured.events.append(record)

    on_retry = on_close = on_clear = on_tail = on_end = on_store = on_hook_failure = on_failure


@contextmanager
def capture() -> Iterator[Captured]:
    """Capture what the model saw and every event inside the block (each as the dict of
    its log line: ``event``, ``log_level``, ``session.id``, ``tool``, ...), whatever the
    logging configuration."""
    captured = Captured()
    stop = _observe.add_hooks(_Recorder(captured))
    try:
        yield captured
    finally:
        stop()


__dir__ = _surface.public_dir(__name__)
"""``__all__`` and the dunders: the names imported to build this module stay usable
here but are not its surface (``dir()``, completion)."""
