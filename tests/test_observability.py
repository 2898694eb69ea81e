"""Logs a library owes its users: quiet by default, never stdout, following the
application's configuration at the time of each event; hooks; session and call ids."""

from __future__ import annotations

import io
import json
import logging
import re
import subprocess
import sys
from functools import partial
from typing import Any

import pytest
import structlog
import structlog.testing

import toolhygiene as th
from helpers import Lying, app_logger, documented_events, flaky

# Private imports, by design (internal units under test): the log layer's configuration, restored after each test.
from toolhygiene import _log
from toolhygiene.testing import model_turn

FAILING_TOOL = """
import toolhygiene as th

@th.tool
def broken() -> None:
    raise {exc}

with th.Session([broken]) as session:
    session.call("broken")
"""


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)


def test_a_failing_tool_prints_nothing_on_stdout_when_nothing_is_configured() -> None:
    """Python's own rules: an unknown failure is a warning (stderr, with its traceback);
    a classified one is INFO (nothing shown); stdout stays untouched either way."""
    unknown = run_python(FAILING_TOOL.format(exc='RuntimeError("layout not recognised")'))
    assert unknown.stdout == ""
    assert unknown.stderr.startswith("tool.failed session.id=")
    assert "category='unknown'" in unknown.stderr
    assert "Traceback (most recent call last)" in unknown.stderr
    assert "RuntimeError: layout not recognised" in unknown.stderr

    classified = run_python(FAILING_TOOL.format(exc='KeyError("ORD-1")'))
    assert classified.stdout == "" and classified.stderr == ""


def test_ids_from_two_processes_differ() -> None:
    code = "import toolhygiene as th; print(th.Session([]).id, th.Session([]).id)"
    first, second = run_python(code).stdout.split(), run_python(code).stdout.split()
    ids = first + second
    assert len(set(ids)) == 4
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)


def test_the_users_own_session_id_is_used(caplog: pytest.LogCaptureFixture) -> None:
    @th.tool
    def broken() -> None:
        raise KeyError("x")

    session = th.Session([broken], session_id="conv-42")
    assert session.id == "conv-42"
    with th.testing.capture() as seen:
        session.call("broken")
        session.close()
    assert {e["session.id"] for e in seen.events} == {"conv-42"}


@pytest.mark.parametrize("bad", ["", "   ", "x" * 257, 42])
def test_a_session_id_that_cannot_be_one_is_refused(bad: Any) -> None:
    with pytest.raises(th.UsageError, match="session_id must be"):
        th.Session([], session_id=bad)


@th.tool
def not_found(order_id: str) -> str:
    """Fetch an order."""
    raise th.ToolError(f"no order {order_id}", retryable=False, category="not_found")


def test_a_session_made_before_structlog_configure_follows_it() -> None:
    session = th.Session([not_found])
    out = io.StringIO()
    structlog.configure(processors=[structlog.processors.JSONRenderer()],
                        logger_factory=structlog.WriteLoggerFactory(file=out))
    try:
        session.call("not_found", {"order_id": "ORD-1"}, call_id="toolu_1")
    finally:
        structlog.reset_defaults()
    [record] = [json.loads(line) for line in out.getvalue().splitlines()]
    assert record["event"] == "tool.failed"
    assert record["session.id"] == session.id and record["call_id"] == "toolu_1"
    assert record["tool"] == "not_found" and record["category"] == "not_found"
    assert record["fingerprint"] and isinstance(record["exception"], str)
    assert record["exception"].startswith("Traceback (most recent call last)")


def test_console_renderers_print_the_traceback_as_a_traceback() -> None:
    session = th.Session([not_found])
    out = io.StringIO()
    structlog.configure(processors=[structlog.dev.ConsoleRenderer(colors=False)],
                        logger_factory=structlog.WriteLoggerFactory(file=out))
    try:
        session.call("not_found", {"order_id": "ORD-1"})
    finally:
        structlog.reset_defaults()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("tool.failed") and "session.id=" in lines[0]
    assert "Traceback (most recent call last):" in lines
    assert any(line.endswith("ToolError: no order ORD-1") for line in lines)


def test_stdlib_handlers_get_the_fields_and_the_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="toolhygiene")
    session = th.Session([not_found])
    session.call("not_found", {"order_id": "ORD-1"}, call_id="toolu_9")
    [record] = [r for r in caplog.records if r.name == "toolhygiene"]
    assert record.levelno == logging.INFO
    fields = record.toolhygiene  # type: ignore[attr-defined]
    assert fields["event"] == "tool.failed" and fields["session.id"] == session.id
    assert fields["call_id"] == "toolu_9" and fields["category"] == "not_found"
    assert "Traceback (most recent call last)" in fields["exception"]
    assert record.exc_text == fields["exception"]
    assert "Traceback (most recent call last)" in logging.Formatter().format(record)


def test_one_call_silences_the_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="toolhygiene")
    previous = th.configure(logs=False)
    try:
        th.Session([not_found]).call("not_found", {"order_id": "ORD-1"})
    finally:
        th.configure(logs=previous.logs)
    assert not [r for r in caplog.records if r.name == "toolhygiene"]


def test_one_call_redirects_the_logs(caplog: pytest.LogCaptureFixture) -> None:
    mine = logging.getLogger("myapp.tools")
    caplog.set_level(logging.INFO, logger="myapp.tools")
    previous = th.configure(logs=mine)
    try:
        th.Session([not_found]).call("not_found", {"order_id": "ORD-1"})
    finally:
        th.configure(logs=previous.logs)
    assert [r.toolhygiene["event"] for r in caplog.records  # type: ignore[attr-defined]
            if r.name == "myapp.tools"] == ["tool.failed"]

    capturing = structlog.testing.CapturingLogger()
    previous = th.configure(logs=capturing)
    try:
        th.Session([not_found]).call("not_found", {"order_id": "ORD-2"})
    finally:
        th.configure(logs=previous.logs)
    [call] = capturing.calls
    assert call.method_name == "info" and call.args == ("tool.failed",)
    assert call.kwargs["category"] == "not_found" and "exception" in call.kwargs


def test_logs_must_be_something_that_logs() -> None:
    with pytest.raises(th.UsageError, match="logs must be"):
        th.configure(logs="stdout")


# -- every documented event, with its fields ---------------------------------------------


def test_the_readme_documents_every_event() -> None:
    assert set(documented_events()) == {
        "tool.failed", "tool.refused", "tool.retry", "tool.closed", "error.recovered",
        "error.stopped", "transcript.cleared", "conversation.items_deleted", "session.closed",
        "hook.failed", "tool.unclassified", "tool.still_running", "tool.finished_late",
        "store.unavailable"}


def test_levels_follow_what_an_application_must_see() -> None:
    @th.tool(max_failures=1)
    def broken() -> None:
        raise RuntimeError("layout not recognised")

    with th.testing.capture() as seen:
        session = th.Session([broken, not_found])
        session.call("not_found", {"order_id": "ORD-1"})
        session.call("broken")
    levels = {e["event"] + ":" + e.get("category", ""): e["log_level"] for e in seen.events}
    assert levels == {"tool.failed:not_found": "info", "tool.failed:unknown": "warning",
                      "tool.closed:unknown": "warning"}


# -- hooks ----------------------------------------------------------------------------------


class Metrics(th.Hooks):
    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []

    def on_call(self, call: th.HookCall) -> None:
        self.seen.append(("call", call.tool))

    def on_outcome(self, call: th.HookCall, outcome: Any) -> None:
        assert call.seconds >= 0
        self.seen.append(("outcome", outcome.ok))

    def on_failure(self, event: th.HookEvent) -> None:
        self.seen.append((event.name, event.failure.category.value))

    def on_retry(self, event: th.HookEvent) -> None:
        self.seen.append((event.name, event.fields["attempt"]))

    def on_close(self, event: th.HookEvent) -> None:
        self.seen.append((event.name, event.tool))

    def on_clear(self, event: th.HookEvent) -> None:
        self.seen.append((event.name, event.fields["rounds"]))

    def on_tail(self, event: th.HookEvent) -> None:
        self.seen.append((event.name, event.fields["tail"]))

    def on_end(self, event: th.HookEvent) -> None:
        self.seen.append((event.name, event.fields["calls"]))


def test_hooks_see_everything_without_parsing_logs() -> None:
    @th.tool(max_failures=1)
    def get_weather(city: str) -> str:
        if city != "Paris":
            raise th.ToolError(f"no city {city}", retryable=False, category="not_found")
        return "21C"

    metrics = Metrics()
    remove = th.add_hooks(metrics)
    try:
        turn = partial(model_turn, "openai_chat")
        messages: list[Any] = [{"role": "user", "content": "go"}]
        with th.Session([get_weather]) as session:
            session.handle(turn([("get_weather", {"city": "Lyon"})]), messages)
            session.handle(turn([("get_weather", {"city": "Paris"})]), messages)
    finally:
        remove()
    assert metrics.seen == [
        ("call", "get_weather"), ("tool.failed", "not_found"), ("tool.closed", "get_weather"),
        ("outcome", False),
        ("call", "get_weather"), ("tool.refused", "unknown"), ("outcome", False),
        ("error.stopped", 1), ("session.closed", 2),
    ]
    th.Session([get_weather]).call("get_weather", {"city": "Paris"})
    assert len(metrics.seen) == 9  # removed: nothing more


def test_a_failing_hook_never_breaks_a_call(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(th.Hooks):
        def on_call(self, call: th.HookCall) -> None:
            raise ValueError("hook bug")

        def on_failure(self, event: th.HookEvent) -> None:
            raise ValueError("hook bug")

    remove = th.add_hooks(Broken())
    try:
        outcome = th.Session([not_found]).call("not_found", {"order_id": "ORD-1"})
    finally:
        remove()
    assert outcome.content.startswith("[error] not_found: not_found.")
    failures = [r for r in caplog.records if r.getMessage().startswith("hook.failed")]
    assert [r.toolhygiene["method"] for r in failures] == [  # type: ignore[attr-defined]
        "on_call", "on_failure"]
    assert all(r.levelno == logging.WARNING and r.exc_text and not r.exc_info for r in failures)


def test_add_hooks_takes_hooks() -> None:
    with pytest.raises(th.UsageError, match=r"th\.Hooks subclass"):
        th.add_hooks(print)  # type: ignore[arg-type]


# -- ids after a reset ----------------------------------------------------------------------


def test_a_reset_starts_a_conversation_with_a_fresh_id() -> None:
    with th.testing.instant_retries(), th.testing.capture() as seen:
        session = th.Session([not_found, flaky()])
        first = session.id
        session.reset()
        second = session.id
        session.call("not_found", {"order_id": "ORD-1"})
        session.call("flaky")  # retried locally: the retry event has the id too
        session.close()
    assert second != first and re.fullmatch(r"[0-9a-f]{16}", second)
    ids = [(e["event"], e["session.id"]) for e in seen.events]
    assert ids == [("session.closed", first), ("tool.failed", second),
                   ("tool.retry", second), ("error.stopped", second),
                   ("session.closed", second)]


def test_a_reset_keeps_your_own_id_unless_you_give_the_next() -> None:
    session = th.Session([], session_id="conv-1")
    session.reset()
    assert session.id == "conv-1"
    session.reset(session_id="conv-2")
    assert session.id == "conv-2"
    with pytest.raises(th.UsageError, match="session_id"):
        session.reset(session_id="")
    assert session.id == "conv-2" and not session.is_closed
    with th.testing.capture() as seen:
        session.reset()
        session.call("nothing_here")
    assert {e["session.id"] for e in seen.events} == {"conv-2"}


# -- the exception on log records -----------------------------------------------------------

SECRET = "sk-ant-api03-" + "Zq8vX2mN4pL7rT1wY6uB3kD9" * 3


@th.tool
def leaky() -> str:
    """Fails with a credential in its message."""
    raise PermissionError(f"denied for key {SECRET}")


def test_stdlib_records_carry_the_exception(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="toolhygiene")
    th.Session([leaky]).call("leaky")
    [record] = [r for r in caplog.records if r.name == "toolhygiene"]
    assert record.exc_info is None  # redacted logs: no raw exception for a handler to print
    assert record.exc_text == record.toolhygiene["exception"]  # type: ignore[attr-defined]
    shown = logging.Formatter("%(message)s").format(record)
    assert "Traceback (most recent call last)" in shown and 'raise PermissionError' in shown
    assert "PermissionError: denied for key [redacted:" in shown
    assert SECRET not in shown  # the text formatters print is the redacted one

    caplog.clear()
    with th.configure(redact_logs=False):
        th.Session([leaky]).call("leaky")
    [record] = [r for r in caplog.records if r.name == "toolhygiene"]
    assert record.exc_info is not None  # asked for: the exception itself, for handlers
    kind, exc, tb = record.exc_info
    assert kind is PermissionError and isinstance(exc, PermissionError) and tb is not None
    assert SECRET in logging.Formatter("%(message)s").format(record)


def test_redact_logs_off_leaves_hooks_and_capture_redacted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="toolhygiene")
    seen: list[th.HookEvent] = []

    class Hook(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            seen.append(event)

    remove = th.add_hooks(Hook())
    try:
        with th.configure(redact_logs=False), th.testing.capture() as captured:
            th.Session([leaky]).call("leaky")
    finally:
        remove()
    [record] = [r for r in caplog.records if r.name == "toolhygiene"]
    assert SECRET in record.toolhygiene["exception"]  # type: ignore[attr-defined]
    assert SECRET in str(record.exc_text)
    [event] = seen
    assert "[redacted:" in event.fields["exception"] and SECRET not in event.fields["exception"]
    [failed] = captured.named("tool.failed")
    assert "[redacted:" in failed["exception"] and SECRET not in str(failed)


def test_structlog_gets_the_traceback_its_own_way() -> None:
    with structlog.testing.capture_logs() as logs:
        th.Session([leaky]).call("leaky")
    [entry] = logs
    assert entry["exception"].startswith("Traceback (most recent call last)")
    assert SECRET not in entry["exception"] and "exc_info" not in entry  # redacted by default

    out = io.StringIO()
    structlog.configure(processors=[structlog.processors.format_exc_info,
                                    structlog.processors.JSONRenderer()],
                        logger_factory=structlog.WriteLoggerFactory(file=out))
    try:
        with th.configure(redact_logs=False):
            th.Session([leaky]).call("leaky")
            with structlog.testing.capture_logs() as raw:
                th.Session([leaky]).call("leaky")
    finally:
        structlog.reset_defaults()
    [entry] = raw
    assert isinstance(entry["exc_info"], PermissionError)
    [line] = [json.loads(text) for text in out.getvalue().splitlines()]
    assert "exc_info" not in line  # format_exc_info rendered it
    assert line["exception"].startswith("Traceback (most recent call last)")
    assert f"PermissionError: denied for key {SECRET}" in line["exception"]


# -- failing hooks, read-only events --------------------------------------------------------


class Raising(th.Hooks):
    def on_failure(self, event: th.HookEvent) -> None:
        raise ValueError("hook bug")

    def on_hook_failure(self, event: th.HookEvent) -> None:
        raise ValueError("and again")  # must not loop


def test_logs_false_silences_hook_failures_but_hooks_still_see_them(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    remove = th.add_hooks(Raising())
    try:
        with th.configure(logs=False), th.testing.capture() as seen:
            outcome = th.Session([not_found]).call("not_found", {"order_id": "ORD-1"})
        assert not caplog.records  # nothing through logging, the hook's error neither
        [failed] = seen.named("hook.failed")
        assert failed["hook"] == "Raising" and failed["method"] == "on_failure"
        assert failed["log_level"] == "warning" and "ValueError: hook bug" in failed["exception"]

        with th.testing.capture():
            th.Session([not_found]).call("not_found", {"order_id": "ORD-1"})
    finally:
        remove()
    [record] = [r for r in caplog.records if r.getMessage().startswith("hook.failed")]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert record.exc_text and record.exc_text.endswith("ValueError: hook bug\n")
    assert outcome.content.startswith("[error] not_found: not_found.")


def test_every_hook_sees_the_same_read_only_event() -> None:
    seen: list[dict[str, Any]] = []

    class Meddler(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            event.fields["category"] = "changed"  # type: ignore[index]

        def on_tail(self, event: th.HookEvent) -> None:
            event.fields["tail"] = 99  # type: ignore[index]

    class Reader(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            seen.append(dict(event.fields))

        on_tail = on_failure

    removers = [th.add_hooks(Meddler()), th.add_hooks(Reader())]
    try:
        with th.testing.capture() as captured:
            session = th.Session([not_found])
            session.call("not_found", {"order_id": "ORD-1"})
            session.close()
    finally:
        for remove in removers:
            remove()
    [tail] = session.stats()["tails"]
    assert seen[0]["category"] == "not_found" and seen[1]["tail"] == tail["tail"] != 99
    assert [e["method"] for e in captured.named("hook.failed")] == ["on_failure", "on_tail"]
    assert all("TypeError" in e["exception"] for e in captured.named("hook.failed"))


# -- configure() takes back what it returned ------------------------------------------------


def test_configure_restores_the_settings_it_returned() -> None:
    before = th.configure()
    previous = th.configure(line_cap=200, logs=False, redact_emails=False, result_cap=5000)
    assert previous == before
    th.configure(previous)
    assert th.configure() == before

    with th.configure(trace_content=True, opentelemetry=False) as saved:
        assert saved == before
        assert th.configure().trace_content and not th.configure().opentelemetry
    assert th.configure() == before

    th.configure(previous, line_cap=180)  # keywords apply on top
    assert th.configure().line_cap == 180 and th.configure().logs is True
    th.configure(before)


@pytest.mark.parametrize("change", [{"line_cap": 10}, {"logs": "stdout"},
                                    {"retry_after_ceiling": -1.0}, {"redact_logs": "no"}])
def test_configure_refuses_a_settings_it_cannot_use_and_changes_nothing(
        change: dict[str, Any]) -> None:
    import dataclasses

    before = th.configure()
    broken = dataclasses.replace(before, **change, result_cap=9000)
    with pytest.raises(th.UsageError):
        th.configure(broken)
    assert th.configure() == before
    with pytest.raises(th.UsageError, match="Settings"):
        th.configure({"line_cap": 200})  # type: ignore[arg-type]
    with pytest.raises(th.UsageError, match="logs must be"):
        th.configure(line_cap=200, logs="stdout")  # the line cap is not set either
    assert th.configure() == before


# -- every output: what a handler can read, one cap, one event (cold test of issue 14) -----


def _reachable(value: Any, depth: int = 0) -> str:
    """Everything a handler can read from ``value`` (a record's attributes, the exception
    and its traceback's text, nested dicts), as one text."""
    if depth > 4:
        return ""
    if isinstance(value, BaseException):
        import traceback
        return "".join(traceback.format_exception(type(value), value, value.__traceback__))
    if isinstance(value, tuple) and len(value) == 3 and isinstance(value[1], BaseException):
        return _reachable(value[1], depth + 1)
    if isinstance(value, dict):
        return " ".join(f"{k} {_reachable(v, depth + 1)}" for k, v in value.items())
    if isinstance(value, logging.LogRecord):
        return _reachable(vars(value), depth + 1)
    return repr(value)


SHAPES = [SECRET, "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2, "AKIA" + "Q" * 16 + " " + "s" * 0]


def test_no_secret_reaches_anything_a_logging_handler_can_read() -> None:
    """With the default redact_logs=True, a handler that formats ``exc_info`` itself
    (structlog's ProcessorFormatter, OpenTelemetry's LoggingHandler, a JSON formatter)
    finds no raw exception on the record; the redacted traceback is its ``exc_text``."""
    from structlog.stdlib import ProcessorFormatter

    secret = SHAPES[0]

    @th.tool(retries=1)
    def transient() -> None:
        raise ConnectionResetError(f"reset, key {secret}")

    class Leaky(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            raise ValueError(f"hook saw {secret}")

    logger, handler = app_logger("toolhygiene-app-d1")
    remove = th.add_hooks(Leaky())
    try:
        with th.configure(logs=logger), th.testing.instant_retries():
            session = th.Session([leaky, transient])
            session.call("leaky")
            session.call("transient")
    finally:
        remove()
    names = {r.toolhygiene["event"] for r in handler.records}  # type: ignore[attr-defined]
    assert {"tool.failed", "tool.retry", "hook.failed"} <= names
    json_like = logging.Formatter()
    structlog_like = ProcessorFormatter(processors=[
        ProcessorFormatter.remove_processors_meta, structlog.processors.format_exc_info,
        structlog.processors.JSONRenderer()])
    for record in handler.records:
        for shape in SHAPES:
            assert shape not in _reachable(record), record.getMessage()
        assert record.exc_info is None
        assert record.exc_text == record.toolhygiene["exception"]  # type: ignore[attr-defined]
        assert (record.exc_text or "").startswith("Traceback (most recent call last)")
        for formatter in (json_like, structlog_like):
            assert secret not in formatter.format(record)
        if record.exc_info:
            assert secret not in json_like.formatException(record.exc_info)


def test_a_hook_failing_to_hear_of_a_failure_is_logged_once_bounded_and_redacted(
        capsys: pytest.CaptureFixture[str]) -> None:
    class A(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            raise ValueError(f"key {SECRET} " + "x" * 400_000)

    class B(th.Hooks):
        def on_hook_failure(self, event: th.HookEvent) -> None:
            raise RuntimeError(f"B too, key {SECRET} " + "y" * 400_000)

    logger, handler = app_logger("toolhygiene-app-d2")
    removers = [th.add_hooks(A()), th.add_hooks(B())]
    try:
        with th.configure(logs=logger):
            th.Session([not_found]).call("not_found", {"order_id": "ORD-1"})
    finally:
        for remove in removers:
            remove()
    logged = [getattr(r, "toolhygiene") for r in handler.records]  # noqa: B009
    failed = [each for each in logged if each["event"] == "hook.failed"]
    assert [(f["hook"], f["method"]) for f in failed] == [
        ("test_a_hook_failing_to_hear_of_a_failure_is_logged_once_bounded_and_redacted.<locals>.A",
         "on_failure"),
        ("test_a_hook_failing_to_hear_of_a_failure_is_logged_once_bounded_and_redacted.<locals>.B",
         "on_hook_failure")]
    for each in failed:
        assert len(each["exception"]) <= _log.FIELD_CAP and SECRET not in each["exception"]
    assert "RuntimeError: B too" in failed[1]["exception"]
    assert capsys.readouterr() == ("", "")  # never past the configured destination


@pytest.mark.parametrize("bad", [logging, logging.Logger, structlog.stdlib.BoundLogger])
def test_logs_refuses_a_module_or_a_class(bad: Any) -> None:
    before = th.configure()
    with pytest.raises(th.UsageError, match="logs must be") as raised:
        th.configure(logs=bad)
    assert "\n" not in str(raised.value)
    assert th.configure() == before


def test_every_event_about_a_call_carries_its_category_and_fingerprint() -> None:
    @th.tool(retries=0, max_failures=1)
    def lies() -> None:
        raise Lying("x")

    with th.testing.capture() as seen, th.testing.instant_retries():
        session = th.Session([lies, flaky(), not_found])
        session.call("lies", call_id="c1")
        session.call("lies", call_id="c2")  # closed: refused
        session.call("flaky", call_id="c3")
        session.call("not_found", {"order_id": "x"}, call_id="c4")
        session.call("made_up", call_id="c5")
    about_calls = [e for e in seen.events if e["event"] in {
        "tool.failed", "tool.retry", "tool.closed", "tool.refused", "tool.unclassified",
        "error.recovered", "error.stopped"}]
    assert {e["event"] for e in about_calls} >= {
        "tool.failed", "tool.refused", "tool.unclassified", "tool.closed", "tool.retry"}
    for event in about_calls:
        assert {"tool", "call_id", "category", "fingerprint"} <= set(event), event["event"]
        assert isinstance(event["category"], str) and isinstance(event["fingerprint"], str)
        assert type(event["category"]) is str


def test_a_hook_cannot_change_what_other_outputs_write() -> None:
    class Rewrites(th.Hooks):
        def on_failure(self, event: th.HookEvent) -> None:
            seen_fields.append(dict(event.fields))
            assert event.exc is not None
            event.exc.args = ("HOOK-REWROTE",)

    seen_fields: list[dict[str, Any]] = []
    logger, handler = app_logger("toolhygiene-app-d9")
    remove = th.add_hooks(Rewrites())
    try:
        with th.configure(logs=logger), th.testing.capture() as seen:
            th.Session([not_found]).call("not_found", {"order_id": "ORD-9"})
    finally:
        remove()
    [failed] = seen.named("tool.failed")
    [record] = handler.records
    [fields] = seen_fields
    assert "HOOK-REWROTE" not in failed["exception"] and "no order ORD-9" in failed["exception"]
    assert failed["exception"] == fields["exception"] == record.exc_text
    assert record.toolhygiene == {  # type: ignore[attr-defined]
        k: v for k, v in failed.items() if k != "log_level"}


def test_one_cap_for_every_string_of_every_output() -> None:
    huge = "c" * 1_000_000
    logger, handler = app_logger("toolhygiene-app-d4")
    with th.configure(logs=logger), th.testing.capture() as seen:
        th.Session([not_found]).call("not_found", {"order_id": huge}, call_id=huge)
    [failed] = seen.named("tool.failed")
    assert len(failed["call_id"]) == _log.FIELD_CAP
    assert failed["call_id"] == handler.records[0].toolhygiene["call_id"]  # type: ignore[attr-defined]
    for value in failed.values():
        assert not isinstance(value, str) or len(value) <= _log.FIELD_CAP
