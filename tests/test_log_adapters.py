"""``th.configure(logs=logging.LoggerAdapter(...))`` writes every event through the
adapter's logger, with the adapter's own ``extra`` beside ``toolhygiene`` (cold-14 of
session 7, 3: the adapter was accepted, then every event was lost)."""

from __future__ import annotations

import logging
from typing import Any

import toolhygiene as th


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@th.tool(retries=0)
def boom(x: int) -> int:
    """Boom."""
    raise RuntimeError("kaboom")


def _logged(adapter: Any, logger: logging.Logger) -> list[logging.LogRecord]:
    handler = _Collect()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        with th.configure(logs=adapter), th.testing.capture() as seen:
            th.Session([boom]).call("boom", {"x": 1})
    finally:
        logger.removeHandler(handler)
    assert not seen.named("hook.failed")
    return handler.records


def test_a_logger_adapter_writes_every_event_with_its_extra() -> None:
    logger = logging.getLogger("toolhygiene-test-adapter")
    records = _logged(logging.LoggerAdapter(logger, {"request_id": "r-1"}), logger)
    events = [r.toolhygiene["event"] for r in records]  # type: ignore[attr-defined]
    assert "tool.failed" in events
    assert all(getattr(r, "request_id", None) == "r-1" for r in records)
    failed = next(r for r in records if r.toolhygiene["event"] == "tool.failed")  # type: ignore[attr-defined]
    assert failed.exc_text and "RuntimeError: kaboom" in failed.exc_text


def test_nested_adapters_give_their_extra_the_outer_first() -> None:
    logger = logging.getLogger("toolhygiene-test-adapter-nested")
    inner = logging.LoggerAdapter(logger, {"request_id": "inner", "worker": "w1"})
    outer = logging.LoggerAdapter(inner, {"request_id": "outer"})
    records = _logged(outer, logger)
    assert records
    assert all((r.request_id, r.worker) == ("outer", "w1") for r in records)  # type: ignore[attr-defined]


def test_an_adapter_below_its_level_formats_nothing() -> None:
    logger = logging.getLogger("toolhygiene-test-adapter-quiet")
    handler = _Collect()
    logger.addHandler(handler)
    logger.setLevel(logging.ERROR)
    logger.propagate = False
    try:
        with th.configure(logs=logging.LoggerAdapter(logger, {})):
            th.Session([boom]).call("boom", {"x": 1})
    finally:
        logger.removeHandler(handler)
    assert handler.records == []
