"""Names taken from code are outside text too (cold14 of session 7, 1 and 5): an
exception's class (``exc_type``, a span's ``exception.type``), a frame's file and
function (``frame``), a hooks class (``hook``) and a tool name the model made up
(``HookCall.tool``) are written as one plain line, redacted, in every output: the log
record, ``testing.capture()``, the hooks and the spans."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

import toolhygiene as th
from helpers import app_logger, telemetry_providers

TOKEN = "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"
HOSTILE = f"Err_{TOKEN}\x1b]0;PWNED\x07\nforged"
RAW = (TOKEN, "\x1b", "\x07", "\n", "PWNED")


def _clean(text: Any) -> None:
    assert isinstance(text, str) and text
    for raw in RAW:
        assert raw not in text, (raw, text)
    text.encode("utf-8")


@pytest.fixture
def logged() -> Iterator[list[logging.LogRecord]]:
    """The records the log writes while the test runs."""
    logger, handler = app_logger("toolhygiene-test-code-names")
    with th.configure(logs=logger):
        yield handler.records
    logger.removeHandler(handler)


def _fields(records: list[logging.LogRecord], name: str) -> list[Any]:
    """Every field of each logged event ``name`` (``record.toolhygiene``)."""
    return [
        r.toolhygiene  # type: ignore[attr-defined]
        for r in records
        if r.toolhygiene["event"] == name  # type: ignore[attr-defined]
    ]


def _hostile_frame() -> th.Tool[..., Any]:
    def failing(x: int) -> int:
        raise ValueError("boom")

    failing.__code__ = failing.__code__.replace(
        co_name=f"f\x1b[2J{TOKEN}\nforged", co_filename=f"/srv/{TOKEN}\x1b]0;PWNED\x07.py"
    )
    return th.tool(retries=0, name="failing", description="Fails.")(failing)


def test_a_hostile_exception_class_and_frame_are_written_clean(
    logged: list[logging.LogRecord],
) -> None:
    Leaky = type(HOSTILE, (Exception,), {})

    @th.tool(retries=0)
    def leaky(x: int) -> int:
        """Leaks."""
        raise Leaky("boom")

    exporter = telemetry_providers()[0]
    exporter.clear()
    with th.testing.capture() as seen:
        session = th.Session([leaky, _hostile_frame()])
        session.call("leaky", {"x": 1})
        session.call("failing", {"x": 1})
    captured = seen.named("tool.failed")
    written = _fields(logged, "tool.failed")
    assert len(captured) == len(written) == 2
    for event in [*captured, *written]:
        _clean(event["exc_type"])
    _clean(captured[1]["frame"])
    _clean(written[1]["frame"])
    assert "[redacted:github-token]" in captured[0]["exc_type"]
    types = [
        dict(e.attributes or {})["exception.type"]
        for span in exporter.get_finished_spans()
        for e in span.events
        if e.name == "gen_ai.execute_tool.exception"
    ]
    assert len(types) == 2
    for each in types:
        _clean(each)


def test_a_hostile_hooks_class_is_named_clean(logged: list[logging.LogRecord]) -> None:
    def on_failure(self: Any, event: th.HookEvent) -> None:
        raise RuntimeError("hook broke")

    Hostile = type(HOSTILE, (th.Hooks,), {"on_failure": on_failure})

    @th.tool(retries=0)
    def fails(x: int) -> int:
        """Fails."""
        raise ValueError("nope")

    with th.testing.capture() as seen:
        remove = th.add_hooks(Hostile())
        try:
            th.Session([fails]).call("fails", {"x": 1})
        finally:
            remove()
    [captured] = seen.named("hook.failed")
    [written] = _fields(logged, "hook.failed")
    for event in (captured, written):
        _clean(event["hook"])
        assert event["method"] == "on_failure"


def test_hook_call_tool_is_a_made_up_name_as_the_logs_write_it() -> None:
    made_up = "x\ud800\x1b[2J" + TOKEN + "y" * 200_000
    seen: list[tuple[str, bool]] = []

    class Calls(th.Hooks):
        def on_call(self, call: th.HookCall) -> None:
            seen.append((call.tool, call.known))

        def on_outcome(self, call: th.HookCall, outcome: Any) -> None:
            seen.append((call.tool, call.known))

    @th.tool
    def real(x: int) -> int:
        """Real."""
        return x

    with th.testing.capture() as captured:
        remove = th.add_hooks(Calls())
        try:
            session = th.Session([real])
            outcome = session.call(made_up, {}, call_id="c")
            session.call("real", {"x": 1})
        finally:
            remove()
    assert not outcome.ok
    [failed] = captured.named("tool.failed")
    assert seen[0] == seen[1] == (failed["tool"], False)  # the name the logs write
    assert seen[2:] == [("real", True), ("real", True)]
    for raw in (TOKEN, "\x1b", "\ud800"):
        assert raw not in seen[0][0]
    assert len(seen[0][0]) <= 64
    seen[0][0].encode("utf-8")


def test_a_store_errors_class_name_is_written_as_a_name_from_code() -> None:
    """``store.unavailable``'s ``error`` is a class name taken from code: one plain line,
    redacted, in every output (recheck of issue 14, new 4)."""
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    hostile = type("StoreErr\x1b]0;PWNED\x07\n" + token, (th.StoreError,), {})

    class Failing(th.MemoryStore):
        def ended(self, session: str) -> Any:
            raise hostile("store down")

    @th.tool(retries=0)
    def works(x: int) -> int:
        """Works.

        Args:
            x: x.
        """
        return x

    with th.testing.capture() as captured:
        session = th.Session([works], store=Failing(), session_id="conv-1")
        session.call("works", {"x": 1})
        session.close()
    [event] = captured.named("store.unavailable")
    error = event["error"]
    assert error.isprintable()  # one plain line
    assert token not in error and "\x1b" not in error and "[redacted:" in error
