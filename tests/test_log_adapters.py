"""``th.configure(logs=logging.LoggerAdapter(...))`` writes every event through the
adapter's logger, with the adapter's own ``extra`` beside ``toolhygiene`` (cold-14 of
session 7, 3: the adapter was accepted, then every event was lost)."""

from __future__ import annotations

import logging
from typing import Any

import toolhygiene as th
from helpers import app_logger


@th.tool(retries=0)
def boom(x: int) -> int:
    """Boom."""
    raise RuntimeError("kaboom")


def _logged(adapter: Any, name: str) -> list[logging.LogRecord]:
    """What the application's logger ``name`` got, given to ``configure`` as ``adapter``
    (made on that logger) makes of it."""
    logger, handler = app_logger(name)
    try:
        with th.configure(logs=adapter(logger)), th.testing.capture() as seen:
            th.Session([boom]).call("boom", {"x": 1})
    finally:
        logger.removeHandler(handler)
    assert not seen.named("hook.failed")
    return handler.records


def test_a_logger_adapter_writes_every_event_with_its_extra() -> None:
    records = _logged(
        lambda logger: logging.LoggerAdapter(logger, {"request_id": "r-1"}),
        "toolhygiene-test-adapter",
    )
    events = [r.toolhygiene["event"] for r in records]  # type: ignore[attr-defined]
    assert "tool.failed" in events
    assert all(getattr(r, "request_id", None) == "r-1" for r in records)
    failed = next(r for r in records if r.toolhygiene["event"] == "tool.failed")  # type: ignore[attr-defined]
    assert failed.exc_text and "RuntimeError: kaboom" in failed.exc_text


def test_nested_adapters_give_their_extra_the_outer_first() -> None:
    def nested(logger: logging.Logger) -> Any:
        inner = logging.LoggerAdapter(logger, {"request_id": "inner", "worker": "w1"})
        return logging.LoggerAdapter(inner, {"request_id": "outer"})

    records = _logged(nested, "toolhygiene-test-adapter-nested")
    assert records
    assert all((r.request_id, r.worker) == ("outer", "w1") for r in records)  # type: ignore[attr-defined]


def test_an_adapter_below_its_level_formats_nothing() -> None:
    logger, handler = app_logger("toolhygiene-test-adapter-quiet")
    logger.setLevel(logging.ERROR)
    try:
        with th.configure(logs=logging.LoggerAdapter(logger, {})):
            th.Session([boom]).call("boom", {"x": 1})
    finally:
        logger.removeHandler(handler)
    assert handler.records == []
