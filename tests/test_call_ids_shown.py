"""A call id is redacted wherever toolhygiene writes it (logs, spans, hook events,
``testing.capture()``), and exact wherever it pairs calls with results (the message list,
``stats()``): the model or the caller may make up an id that holds a credential."""

from __future__ import annotations

import io
import json
import logging
import string
from typing import Any

import pytest
import structlog
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import toolhygiene as th
from helpers import examples, telemetry_providers
from toolhygiene._observe import FIELD_CAP, shown_id
from toolhygiene.testing import capture

GITHUB = "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"
OTHER = "ghp_Q8mZr2LkVt7NcXw4Yb9PjHs3DfGa6UeK1oRi"
FAILING = f"call_{GITHUB}"
RECOVERING = f"toolu_{OTHER}"


@th.tool
def lookup(key: str) -> str:
    """Look a key up."""
    if key != "ok":
        raise th.ToolError(f"no entry {key}", retryable=False, category="not_found")
    return "found"


def turn(call_id: str, key: str) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [{"type": "tool_use", "id": call_id, "name": "lookup", "input": {"key": key}}],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def conversation() -> tuple[th.Session, list[Any]]:
    """A failure under a secret-shaped id, then its recovery under another; the session
    closed (so every event of it has been told)."""
    session = th.Session([lookup], clearing="stub")  # the failed round stays, its result a stub
    messages: list[Any] = [{"role": "user", "content": "go"}]
    session.handle(turn(FAILING, "missing"), messages)
    session.handle(turn(RECOVERING, "ok"), messages)
    session.close()
    return session, messages


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    """The spans ended during the test (the process's providers, shared by the tests)."""
    shared: InMemorySpanExporter = telemetry_providers()[0]
    shared.clear()
    return shared


def test_the_shapes_are_secrets_to_the_redaction() -> None:
    """Not blind: the ids below hold what the logs redact anywhere else."""
    assert GITHUB not in th.redact(FAILING) and OTHER not in th.redact(RECOVERING)


def test_the_list_keeps_the_exact_ids_and_the_stats_too() -> None:
    session, messages = conversation()
    sent = [b for m in messages if m["role"] == "user" and isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]
    assert [b["tool_use_id"] for b in sent] == [FAILING, RECOVERING]
    asked = [b["id"] for m in messages if m["role"] == "assistant" for b in m["content"]]
    assert asked == [FAILING, RECOVERING]
    [tail] = session.stats()["tails"]
    assert tail["call_id"] == FAILING and tail["recovered_by"] == RECOVERING


def test_logging_writes_no_secret_and_keeps_the_pairing(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="toolhygiene")
    conversation()
    records = [r for r in caplog.records if r.name == "toolhygiene"]
    fields = [r.toolhygiene for r in records]  # type: ignore[attr-defined]
    assert {f["event"] for f in fields} >= {"tool.failed", "error.recovered"}
    for record in records:
        text = logging.Formatter("%(message)s").format(record)
        assert GITHUB not in text and OTHER not in text
        assert GITHUB not in json.dumps(record.toolhygiene, default=str)  # type: ignore[attr-defined]
        assert OTHER not in json.dumps(record.toolhygiene, default=str)  # type: ignore[attr-defined]
    [failed] = [f for f in fields if f["event"] == "tool.failed"]
    [recovered] = [f for f in fields if f["event"] == "error.recovered"]
    assert failed["call_id"] == recovered["call_id"] == shown_id(FAILING)
    assert recovered["recovered_by"] == shown_id(RECOVERING) != recovered["call_id"]
    assert failed["call_id"].startswith("[redacted:")


def test_structlog_writes_no_secret() -> None:
    out = io.StringIO()
    structlog.configure(processors=[structlog.processors.JSONRenderer()],
                        logger_factory=structlog.WriteLoggerFactory(file=out))
    try:
        conversation()
    finally:
        structlog.reset_defaults()
    lines = [json.loads(text) for text in out.getvalue().splitlines()]
    assert {line["event"] for line in lines} >= {"tool.failed", "error.recovered"}
    assert GITHUB not in out.getvalue() and OTHER not in out.getvalue()
    [recovered] = [line for line in lines if line["event"] == "error.recovered"]
    assert recovered["recovered_by"] == shown_id(RECOVERING)


def test_spans_and_their_events_write_no_secret_and_pair(
        exporter: InMemorySpanExporter) -> None:
    conversation()
    spans = exporter.get_finished_spans()
    tools = [s for s in spans if s.name.startswith("execute_tool")]
    assert len(tools) == 2
    everything = json.dumps(
        [[dict(s.attributes or {}), [dict(e.attributes or {}) for e in s.events]]
         for s in spans],
        default=str,
    )
    assert GITHUB not in everything and OTHER not in everything
    ids = [s.attributes["gen_ai.tool.call.id"] for s in tools]  # type: ignore[index]
    assert ids == [shown_id(FAILING), shown_id(RECOVERING)]
    [event] = [e for e in tools[1].events if e.name == "toolhygiene.error.recovered"]
    assert event.attributes is not None
    assert event.attributes["toolhygiene.call_id"] == ids[0]  # the failing call's span
    assert event.attributes["toolhygiene.recovered_by"] == ids[1]  # this span's own call


def test_hooks_and_capture_see_the_id_as_written() -> None:
    seen: list[Any] = []

    class Watch(th.Hooks):
        def on_call(self, call: Any) -> None:
            seen.append(call.call_id)

        def on_failure(self, event: Any) -> None:
            seen.append(event.call_id)

    remove = th.add_hooks(Watch())
    try:
        with capture() as captured:
            conversation()
    finally:
        remove()
    assert seen == [shown_id(FAILING), shown_id(FAILING), shown_id(RECOVERING)]
    written = json.dumps(captured.events, default=str)
    assert GITHUB not in written and OTHER not in written
    assert captured.contents[-1] == "found"  # the call itself ran under its exact id


def test_two_secret_ids_stay_two() -> None:
    assert shown_id(FAILING) != shown_id(f"call_{OTHER}")
    assert shown_id(FAILING) == shown_id(FAILING)  # the same id, the same text everywhere


_ALNUM = string.ascii_letters + string.digits


@settings(max_examples=examples(200), deadline=None)
@given(
    prefix=st.sampled_from(["", "call_", "toolu_", "fc_", "call-"]),
    body=st.text(alphabet=_ALNUM, min_size=36, max_size=36),
    ordinary=st.text(alphabet=_ALNUM, min_size=8, max_size=24),
)
def test_an_id_is_written_redacted_and_an_ordinary_one_as_it_is(
        prefix: str, body: str, ordinary: str) -> None:
    secret = f"ghp_{body}"
    assume(th.redact(secret) != secret)  # a shape the redaction knows (not ghp_aaaa...)
    shown = shown_id(f"{prefix}{secret}")
    assert secret not in shown and body not in shown
    plain_id = f"toolu_01{ordinary}"
    if th.redact(plain_id) == plain_id:
        assert shown_id(plain_id) == plain_id


def test_an_id_past_the_cap_is_bounded_and_not_kept() -> None:
    long_id = "call_" + "a" * 100_000
    shown = shown_id(long_id)
    assert len(shown) <= FIELD_CAP and shown.startswith("call_a")
    assert shown != shown_id("call_" + "a" * 100_001)  # tagged apart


def test_caps_are_characters_as_the_readme_says() -> None:
    """One rule for every cap (cold-14b E): characters, not bytes, and the README says so."""
    from pathlib import Path

    shown = shown_id("call_" + "é" * 60_000)
    assert len(shown) <= FIELD_CAP < len(shown.encode())  # characters, not bytes
    root = Path(__file__).parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "counted in characters" in readme
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        assert "at most 64 KB" not in text and "at most 4 KB" not in text, page.name
