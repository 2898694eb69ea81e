"""OpenTelemetry: one execute_tool span per call (GenAI conventions), its events, the
duration histogram; read back with the SDK's in-memory exporters."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.metrics.export import HistogramDataPoint, InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

import toolhygiene as th
from helpers import flaky, import_blocker, telemetry_providers

# Private imports, by design (internal units under test): the log layer's configuration, restored after each test.
from toolhygiene import _log
from toolhygiene.testing import ScriptedServer, model_turn


@pytest.fixture(scope="module")
def providers() -> None:
    """The global providers, set once for the process as an application does."""
    telemetry_providers()


@pytest.fixture
def spans(providers: None) -> InMemorySpanExporter:
    exporter: InMemorySpanExporter = telemetry_providers()[0]
    exporter.clear()
    return exporter


def _reader() -> InMemoryMetricReader:
    reader: InMemoryMetricReader = telemetry_providers()[1]
    return reader


tracer = trace.get_tracer("tests")


@th.tool
def get_weather(city: str) -> str:
    """Current weather in a city."""
    if city != "Paris":
        raise th.ToolError(f"no city named {city}", retryable=False, category="not_found")
    return "21C, clear"


@th.tool
def get_time(city: str) -> str:
    """Local time in a city."""
    return "14:05"


def tool_spans(exporter: InMemorySpanExporter) -> list[ReadableSpan]:
    return [s for s in exporter.get_finished_spans() if s.name.startswith("execute_tool")]


def only(exporter: InMemorySpanExporter, name: str) -> ReadableSpan:
    [span] = [s for s in exporter.get_finished_spans() if s.name == name]
    return span


def test_a_successful_call_is_one_span_under_the_current_one(
        spans: InMemorySpanExporter) -> None:
    session = th.Session([get_weather])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    turn = model_turn("anthropic", [("get_weather", {"city": "Paris"})])
    call_id = turn["content"][0]["id"]
    with tracer.start_as_current_span("invoke_agent"):
        session.handle(turn, messages)
    agent = only(spans, "invoke_agent")
    [span] = tool_spans(spans)
    assert span.name == "execute_tool get_weather" and span.kind is SpanKind.INTERNAL
    assert span.parent is not None and span.parent.span_id == agent.context.span_id
    assert dict(span.attributes or {}) == {
        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.type": "function", "gen_ai.tool.call.id": call_id,
        "gen_ai.tool.description": "Current weather in a city.",
        "gen_ai.conversation.id": session.id, "toolhygiene.attempts": 1}
    assert span.status.status_code is StatusCode.UNSET
    assert span.instrumentation_scope is not None
    assert span.instrumentation_scope.name == "toolhygiene"
    assert span.instrumentation_scope.schema_url == "https://opentelemetry.io/schemas/1.44.0"


def test_a_failure_has_its_category_and_an_exception_event_without_the_message(
        spans: InMemorySpanExporter) -> None:
    th.Session([get_weather]).call("get_weather", {"city": "Lyon"}, call_id="c1")
    [span] = tool_spans(spans)
    attributes = dict(span.attributes or {})
    assert attributes["error.type"] == "not_found"
    assert attributes["toolhygiene.fingerprint"]
    assert span.status.status_code is StatusCode.ERROR and not span.status.description
    [event] = span.events
    assert event.name == "gen_ai.execute_tool.exception"
    assert dict(event.attributes or {}) == {"exception.type": "toolhygiene._errors.ToolError"}
    assert "Lyon" not in repr(attributes) and "Lyon" not in repr(span.events)


def test_content_only_when_the_user_opts_in(spans: InMemorySpanExporter) -> None:
    previous = th.configure(trace_content=True)
    try:
        session = th.Session([get_weather])
        session.call("get_weather", {"city": "Lyon"})
        session.call("get_weather", '{"city": "Paris"}')
    finally:
        th.configure(trace_content=previous.trace_content)
    failed, worked = tool_spans(spans)
    assert failed.attributes is not None and worked.attributes is not None
    assert failed.attributes["gen_ai.tool.call.arguments"] == '{"city": "Lyon"}'
    assert str(failed.attributes["gen_ai.tool.call.result"]).startswith("[error] get_weather")
    [event] = failed.events
    assert event.attributes is not None
    assert event.attributes["exception.message"] == "no city named Lyon"
    assert "Traceback (most recent call last)" in str(event.attributes["exception.stacktrace"])
    assert worked.attributes["gen_ai.tool.call.arguments"] == '{"city": "Paris"}'
    assert worked.attributes["gen_ai.tool.call.result"] == "21C, clear"


def test_parallel_sync_calls_are_siblings_under_the_agent(spans: InMemorySpanExporter) -> None:
    inner = trace.get_tracer("the tool's own library")

    @th.tool(timeout=5)
    def fetch(url: str) -> str:
        with inner.start_as_current_span("GET"):
            return url

    session = th.Session([get_weather, get_time, fetch])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    turn = model_turn("openai_chat", [("get_weather", {"city": "Lyon"}),
                                 ("get_time", {"city": "Paris"}), ("fetch", {"url": "/x"})])
    with tracer.start_as_current_span("invoke_agent"):
        session.handle(turn, messages)
    agent = only(spans, "invoke_agent")
    calls = tool_spans(spans)
    assert sorted(s.name for s in calls) == [
        "execute_tool fetch", "execute_tool get_time", "execute_tool get_weather"]
    assert all(s.parent is not None and s.parent.span_id == agent.context.span_id
               for s in calls)
    ids = [c["id"] for c in turn["choices"][0]["message"]["tool_calls"]]
    assert sorted(str((s.attributes or {})["gen_ai.tool.call.id"]) for s in calls) == sorted(ids)
    # the tool's own span (run in a worker thread for its timeout) is a child of its call
    get = only(spans, "GET")
    assert get.parent is not None
    assert get.parent.span_id == only(spans, "execute_tool fetch").context.span_id
    assert trace.get_current_span() is trace.INVALID_SPAN  # nothing left attached


def test_parallel_async_calls_are_siblings_under_the_agent(spans: InMemorySpanExporter) -> None:
    inner = trace.get_tracer("the tool's own library")

    inside: list[int] = []
    overlapped: list[int] = []
    both: asyncio.Event | None = None

    @th.tool
    async def slow(n: int) -> int:
        nonlocal both
        both = both or asyncio.Event()
        with inner.start_as_current_span(f"work {n}"):
            inside.append(n)
            if len(inside) == 2:
                both.set()
            await asyncio.wait_for(both.wait(), 10)
            overlapped.append(n)  # both runs were inside their spans at once
        return n

    session = th.Session([slow, get_weather])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    turn = model_turn("openai_responses", [("slow", {"n": 1}), ("slow", {"n": 2}),
                                      ("get_weather", {"city": "Lyon"})])

    async def run() -> None:
        with tracer.start_as_current_span("invoke_agent"):
            await session.ahandle(turn, messages)

    asyncio.run(run())
    assert sorted(overlapped) == [1, 2]
    agent = only(spans, "invoke_agent")
    calls = tool_spans(spans)
    assert len(calls) == 3 and len({s.context.span_id for s in calls}) == 3
    assert all(s.parent is not None and s.parent.span_id == agent.context.span_id
               for s in calls)
    for n in (1, 2):
        work = only(spans, f"work {n}")
        assert work.parent is not None
        [owner] = [s for s in calls if s.context.span_id == work.parent.span_id]
        assert owner.name == "execute_tool slow"
    [failed] = [s for s in calls if s.name == "execute_tool get_weather"]
    assert failed.attributes is not None and failed.attributes["error.type"] == "not_found"


def test_local_retries_closing_and_clearing_are_events(spans: InMemorySpanExporter) -> None:
    @th.tool(max_failures=1)
    def broken() -> None:
        raise RuntimeError("no")

    session = th.Session([flaky(), broken, get_weather], max_failures=3)
    messages: list[Any] = [{"role": "user", "content": "go"}]
    turn = partial(model_turn, "anthropic")
    with th.testing.instant_retries(), tracer.start_as_current_span("invoke_agent"):
        session.handle(turn([("flaky", {}), ("broken", {}), ("get_weather", {"city": "Lyon"})]),
                       messages)
        session.handle(turn([("get_weather", {"city": "Paris"}), ("broken", {})]), messages)
    agent = only(spans, "invoke_agent")
    by_name: dict[str, list[ReadableSpan]] = {}
    for span in tool_spans(spans):
        by_name.setdefault(span.name, []).append(span)
    [flaky_span] = by_name["execute_tool flaky"]
    [retry] = flaky_span.events
    assert retry.name == "toolhygiene.tool.retry"
    assert retry.attributes is not None and retry.attributes["toolhygiene.attempt"] == 1
    assert retry.attributes["toolhygiene.category"] == "connectivity"
    assert flaky_span.attributes is not None and flaky_span.attributes["toolhygiene.attempts"] == 2
    closing, refused = by_name["execute_tool broken"]
    assert [e.name for e in closing.events] == ["gen_ai.execute_tool.exception",
                                                "toolhygiene.tool.closed"]
    assert refused.attributes is not None and refused.attributes["error.type"] == "unavailable"
    recovered = by_name["execute_tool get_weather"][1]
    assert [e.name for e in recovered.events] == ["toolhygiene.error.recovered"]
    [cleared] = agent.events
    assert cleared.name == "toolhygiene.transcript.cleared"
    assert cleared.attributes is not None and cleared.attributes["toolhygiene.rounds"] == 1
    assert cleared.attributes["gen_ai.conversation.id"] == session.id


def test_the_duration_histogram(spans: InMemorySpanExporter) -> None:
    session = th.Session([get_weather])
    session.call("get_weather", {"city": "Paris"})
    session.call("get_weather", {"city": "Lyon"})
    session.call("get_weather", {"city": "Nice"})
    points = _points()
    counts = {tuple(sorted((p.attributes or {}).items())): p.count for p in points}
    base = (("gen_ai.operation.name", "execute_tool"), ("gen_ai.tool.name", "get_weather"))
    assert counts[base] >= 1
    assert counts[(("error.type", "not_found"), base[0], base[1])] >= 2
    assert all(p.explicit_bounds[0] == 0.01 for p in points)


def test_one_call_turns_it_off(spans: InMemorySpanExporter) -> None:
    previous = th.configure(opentelemetry=False)
    try:
        th.Session([get_weather]).call("get_weather", {"city": "Lyon"})
    finally:
        th.configure(opentelemetry=previous.opentelemetry)
    assert tool_spans(spans) == []


def test_a_base_exception_still_ends_the_span_and_detaches(spans: InMemorySpanExporter) -> None:
    @th.tool
    def interrupted() -> None:
        raise KeyboardInterrupt

    with tracer.start_as_current_span("invoke_agent") as agent:
        with pytest.raises(KeyboardInterrupt):
            th.Session([interrupted]).call("interrupted")
        assert trace.get_current_span() is agent
    [span] = tool_spans(spans)
    assert span.attributes is not None and span.attributes["error.type"] == "KeyboardInterrupt"
    assert span.end_time is not None


def test_nothing_is_wrapped_until_a_provider_is_set() -> None:
    code = ("import toolhygiene as th\n"
            "from toolhygiene import _observe\n"
            "print(th.Session([]).call('x').ok, _observe.watching())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "False ()\n"


def test_the_core_works_without_opentelemetry() -> None:
    code = (
        import_blocker(["opentelemetry"]) +
        "import toolhygiene as th\n"
        "@th.tool\n"
        "def broken() -> None:\n"
        "    raise KeyError('x')\n"
        "print(th.Session([broken]).call('broken').content.split('.')[0])\n"
        "print(any(m.startswith('opentelemetry') for m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "[error] broken: not_found\nFalse\n"


# -- made-up names, one cap, plain attributes (cold test of issue 14) ---------------------

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2


def _points(marker: str | None = None) -> list[HistogramDataPoint]:
    """The points of toolhygiene's duration histogram; given ``marker``, those whose
    attributes hold it or the unknown tool's name."""
    data = _reader().get_metrics_data()
    assert data is not None
    points = [
        point
        for resource in data.resource_metrics
        for scope in resource.scope_metrics if scope.scope.name == "toolhygiene"
        for metric in scope.metrics if metric.name == "gen_ai.execute_tool.duration"
        for point in metric.data.data_points
        if marker is None
        or marker in str(point.attributes) or "(unknown tool)" in str(point.attributes)
    ]
    histogram = [p for p in points if isinstance(p, HistogramDataPoint)]
    assert histogram == points, "the duration metric is a histogram"
    return histogram


def test_made_up_tool_names_are_redacted_and_share_one_series(
        spans: InMemorySpanExporter) -> None:
    names = [f"zqx_{i}_{TOKEN}" for i in range(40)]
    names += [f"zqx {i}\n" + "w" * 300 for i in range(40)]
    names += [f"zqx_{i}" for i in range(40)]
    session = th.Session([get_weather])
    for name in names:
        session.call(name, {}, call_id="c")
    made = tool_spans(spans)
    assert len(made) == len(names)
    for span in made:
        attributes = span.attributes or {}
        assert span.name == "execute_tool (unknown tool)"
        assert TOKEN not in str(dict(attributes)) and TOKEN not in span.name
        assert len(str(attributes["gen_ai.tool.name"])) <= 64
    points = _points("zqx")
    assert {(p.attributes or {}).get("gen_ai.tool.name") for p in points} == {"(unknown tool)"}
    assert len({tuple(sorted((p.attributes or {}).items())) for p in points}) == 1


def test_span_strings_have_the_logs_cap_and_attributes_are_plain(
        spans: InMemorySpanExporter) -> None:
    huge = "i" * 1_000_000
    session = th.Session([get_weather])
    messages: list[Any] = [{"role": "user", "content": "go"}]
    turn = partial(model_turn, "anthropic")
    with th.testing.capture() as seen:
        session.call("get_weather", {"city": "Lyon"}, call_id=huge)
        session.handle(turn([("get_weather", {"city": "Paris"})]), messages)
    finished = tool_spans(spans)
    assert len(finished) == 2
    assert finished[0].attributes is not None
    shown = str(finished[0].attributes["gen_ai.tool.call.id"])  # cut, so tagged (shown_id)
    assert len(shown) <= _log.FIELD_CAP and shown.startswith("i" * 60_000)
    for span in finished:
        carriers: list[Any] = [span, *span.events]
        for event in carriers:
            for key, value in (event.attributes or {}).items():
                assert type(value) in (str, bool, int, float), (event.name, key, value)
                assert not isinstance(value, str) or len(value) <= _log.FIELD_CAP
    events = [e.name for e in finished[1].events]
    assert "toolhygiene.error.recovered" in events
    [recovered] = seen.named("error.recovered")
    assert type(recovered["category"]) is str


# -- what goes to spans is redacted whatever the logs' switch says (issue 14, cold review) --

SPAN_KEY = "sk-ant-api03-" + "Zq8vX2mN4pL7rT1wY6uB3kD9" * 3


@th.tool(retries=0)
def leaky(x: str) -> str:
    """Fails with a key in its message, its source line and a note.

    Args:
        x: anything.
    """
    error = ValueError(f"auth failed for {SPAN_KEY}")
    if sys.version_info >= (3, 11):
        error.add_note(f"tried {SPAN_KEY}")
    raise error


class Reading(th.Hooks):
    """Another hook: the event is settled before any output (the other path)."""

    def on_failure(self, event: th.HookEvent) -> None:
        assert event.name


@pytest.mark.parametrize("logs", [False, True])
@pytest.mark.parametrize("hooked", [False, True])
def test_redact_logs_off_never_unredacts_what_goes_to_spans(
        spans: InMemorySpanExporter, logs: bool, hooked: bool) -> None:
    remove = th.add_hooks(Reading()) if hooked else None
    logger = logging.getLogger("test_telemetry.raw")
    try:
        with th.configure(trace_content=True, redact_logs=False,
                          logs=logger if logs else False):
            th.Session([leaky]).call("leaky", {"x": "1"}, call_id="c1")
    finally:
        if remove is not None:
            remove()
    [span] = tool_spans(spans)
    [event] = span.events
    attributes = dict(event.attributes or {})
    assert "Traceback (most recent call last)" in str(attributes["exception.stacktrace"])
    assert "ValueError: auth failed for" in str(attributes["exception.stacktrace"])
    assert SPAN_KEY not in repr(attributes) and SPAN_KEY not in repr(dict(span.attributes or {}))


def test_the_tools_description_is_on_its_span_redacted_and_capped(
        spans: InMemorySpanExporter) -> None:
    plain_tool = th.tool(get_time.fn, name="plain_time")
    secret = th.tool(get_time.fn, name="secret_time",
                     description=f"Local time.\nUse key {SPAN_KEY}\x1b[2J " + "d" * 10_000)
    session = th.Session([plain_tool, secret])
    session.call("plain_time", {"city": "Paris"})
    session.call("secret_time", {"city": "Paris"})
    session.call("made_up", {"city": "Paris"})
    plain_span, secret_span, unknown_span = tool_spans(spans)
    assert (plain_span.attributes or {})["gen_ai.tool.description"] == "Local time in a city."
    shown = str((secret_span.attributes or {})["gen_ai.tool.description"])
    assert shown.startswith("Local time. Use key [redacted")
    assert SPAN_KEY not in shown and "\x1b" not in shown and "\n" not in shown
    assert len(shown) <= 4096
    assert "gen_ai.tool.description" not in (unknown_span.attributes or {})


# -- beside the Anthropic SDK's own spans (docs/logs.md: "same trace" only under your span) -----


@pytest.mark.parametrize("application_span", [False, True])
def test_the_sdks_request_span_shares_a_trace_only_under_an_application_span(
        spans: InMemorySpanExporter, server: ScriptedServer, application_span: bool) -> None:
    anthropic = pytest.importorskip("anthropic")
    pytest.importorskip("anthropic.lib._tracing")  # the SDK's tracing (anthropic >= 2.14)
    server.push(200, model_turn("anthropic", [("get_weather", {"city": "Paris"})]))
    client = anthropic.Anthropic(base_url=server.url, api_key="test", max_retries=0)
    session = th.Session([get_weather])
    messages: list[Any] = [{"role": "user", "content": "weather?"}]

    def loop() -> None:
        response = client.messages.create(
            model="claude-test", max_tokens=100, messages=messages,
            tools=session.schemas("anthropic"))
        session.handle(response, messages)

    if application_span:
        with tracer.start_as_current_span("invoke_agent"):
            loop()
    else:
        loop()
    [request] = [s for s in spans.get_finished_spans() if s.name.startswith("anthropic.")]
    [tool] = tool_spans(spans)
    assert request.context is not None and tool.context is not None
    same = request.context.trace_id == tool.context.trace_id
    assert same is application_span


def test_the_docs_say_what_the_sdks_tool_spans_are() -> None:
    readme = (Path(__file__).resolve().parents[1] / "docs" / "logs.md").read_text(encoding="utf-8")
    text = " ".join(readme.split())
    for said in ("client.beta.sessions.events.tool_runner", "anthropic.mcp_tool_use {tool}",
                 "anthropic.tool_use {tool}", "only when your loop runs inside a span of your own",
                 "anthropic 2.14.0"):
        assert said in text, said
    assert "only in its own tool runner" not in text
