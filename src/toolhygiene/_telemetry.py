"""The OpenTelemetry output: one span per tool call, its events, the duration metric.

Follows the execute-tool conventions of the OpenTelemetry GenAI semantic conventions
(``open-telemetry/semantic-conventions-genai``, Development status; attribute names as in
the semantic-conventions 1.44.0 registry, ``SCHEMA_URL``). Used only when
``opentelemetry-api`` is installed (the ``opentelemetry`` extra) and the application set a
global tracer or meter provider; ``th.configure(opentelemetry=False)`` turns it off.

- span ``execute_tool {gen_ai.tool.name}``, kind INTERNAL, a child of the current span:
  ``gen_ai.operation.name=execute_tool``, ``gen_ai.tool.name``, ``gen_ai.tool.call.id``
  (redacted as the logs write it: ``_observe.shown_id``), ``gen_ai.tool.type=function``,
  ``gen_ai.tool.description`` (the tool's description, redacted and capped like the
  arguments), ``gen_ai.conversation.id`` (the Session's id); on failure
  ``error.type`` (the category; ``unavailable`` for a closed tool's call) and status ERROR;
- span event ``gen_ai.execute_tool.exception`` with ``exception.type`` only; the message and
  the stack trace only with ``th.configure(trace_content=True)``, which also adds
  ``gen_ai.tool.call.arguments`` and ``gen_ai.tool.call.result``. What goes to spans is
  always redacted: ``redact_logs=False`` is a switch of the logs only, and
  ``trace_content`` decides what goes to spans, never whether it is redacted;
- span events ``toolhygiene.tool.retry``, ``toolhygiene.tool.closed``,
  ``toolhygiene.error.recovered`` and, on the span current in ``handle()``,
  ``toolhygiene.transcript.cleared``;
- histogram ``gen_ai.execute_tool.duration`` (s) with ``gen_ai.operation.name``,
  ``gen_ai.tool.name`` and ``error.type``.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Mapping
from typing import Any

from toolhygiene import _config, _observe
from toolhygiene._reading import short_name, type_name
from toolhygiene._redact import sanitize

# opentelemetry-api, imported by ``_load`` once the application has imported it (it must,
# to set a provider) or names a provider in the environment: never with toolhygiene.
trace: Any = None
metrics: Any = None
otel_context: Any = None
_PEEK = False

__all__ = ["SCHEMA_URL", "Telemetry"]

SCHEMA_URL = "https://opentelemetry.io/schemas/1.44.0"
# The GenAI conventions' advice for durations in seconds.
BUCKETS = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92)
_CONTENT_CAP = 4096
# A provider named by the environment is loaded by the first get_*_provider() call: then
# only the public API can tell.
_FROM_ENVIRONMENT = any(
    os.environ.get(name) for name in ("OTEL_PYTHON_TRACER_PROVIDER", "OTEL_PYTHON_METER_PROVIDER")
)


def _load() -> bool:
    """Whether opentelemetry-api is imported (here, the first time it can be needed)."""
    global trace, metrics, otel_context, _PEEK
    if trace is not None:
        return True
    if not _FROM_ENVIRONMENT and "opentelemetry" not in sys.modules:
        return False
    try:
        from opentelemetry import context as otel_context
        from opentelemetry import metrics, trace
        from opentelemetry.metrics import _internal as metrics_internal
    except ImportError:  # the optional extra is not installed: the core works without it
        return False
    _PEEK = not _FROM_ENVIRONMENT and all(
        hasattr(module, name)
        for module, name in ((trace, "_TRACER_PROVIDER"), (metrics_internal, "_METER_PROVIDER"))
    )
    return True


UNKNOWN_TOOL = "(unknown tool)"
"""The ``gen_ai.tool.name`` of the metric and the span name of a call of a tool the
Session does not have: one series for every name the model made up."""


def _name(tool: str) -> str:
    """A tool name as the logs write it: redacted, one line, at most 64 characters (the
    model may send any text). A registered tool's plain name is kept as it is."""
    return tool if len(tool) <= 64 and tool.isidentifier() else sanitize(tool, 64) or "?"


def _shown(call: _observe.Call) -> tuple[str, str]:
    """The call's tool name for its span's attribute, and for the span name and metric
    (bounded: ``UNKNOWN_TOOL`` for a name the Session does not have)."""
    if call.known:
        name = _name(call.tool)
        return name, name
    return sanitize(call.tool, 64) or "?", UNKNOWN_TOOL


def _attribute(value: Any) -> Any:
    """A span attribute: a plain ``str`` (an enum's value), bounded, or a bool or number."""
    return _observe.bounded(value)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("toolhygiene")
    except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
        return "0"


class Telemetry(_observe.Hooks):
    """The hooks that make the spans, their events and the metric."""

    def __init__(self) -> None:
        self._ready = False
        self._tracer: Any = None
        self._duration: Any = None

    def live(self) -> bool:
        """On, and the application set a tracer or a meter provider (cheap to ask)."""
        return _config.settings.opentelemetry and (self._ready or self._probe())

    def _probe(self) -> bool:
        # The public get_*_provider() read the environment on every call while nothing is
        # set: a look at the globals they read first keeps calls cheap until then.
        if not _load():
            return False
        if _PEEK and trace._TRACER_PROVIDER is None and metrics._internal._METER_PROVIDER is None:
            return False
        tracing = not isinstance(
            trace.get_tracer_provider(), (trace.ProxyTracerProvider, trace.NoOpTracerProvider)
        )
        meters = metrics.get_meter_provider()
        metering = not (
            isinstance(meters, metrics.NoOpMeterProvider)
            or type(meters).__name__ == "_ProxyMeterProvider"
        )
        if not (tracing or metering):
            return False
        # Both are proxies until set, so whichever comes later is followed too.
        version = _version()
        self._tracer = trace.get_tracer("toolhygiene", version, schema_url=SCHEMA_URL)
        self._duration = metrics.get_meter(
            "toolhygiene", version, schema_url=SCHEMA_URL
        ).create_histogram(
            "gen_ai.execute_tool.duration",
            unit="s",
            description="Duration of tool executions.",
            explicit_bucket_boundaries_advisory=list(BUCKETS),
        )
        self._ready = True
        return True

    # -- the span of one call -------------------------------------------------------------

    def on_call(self, call: _observe.Call) -> None:
        name, series = _shown(call)
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.type": "function",
            "gen_ai.conversation.id": _attribute(call.session_id),
        }
        if call.call_id is not None:  # as the logs write it: redacted
            attributes["gen_ai.tool.call.id"] = call.call_id
        if call.description:
            attributes["gen_ai.tool.description"] = _description(call.description)
        if _config.settings.trace_content and call.arguments is not None:
            attributes["gen_ai.tool.call.arguments"] = _arguments(call.arguments)
        span = self._tracer.start_span(
            f"execute_tool {series}", kind=trace.SpanKind.INTERNAL, attributes=attributes
        )
        token = otel_context.attach(trace.set_span_in_context(span))
        call.keep(self, (span, token))

    def on_outcome(self, call: _observe.Call, outcome: Any) -> None:
        kept = call.kept(self)
        if kept is None:
            return
        span, token = kept
        error = _error_type(outcome)
        try:
            if error is not None:
                span.set_attribute("error.type", error)
                span.set_status(trace.Status(trace.StatusCode.ERROR))
            if outcome is not None:
                span.set_attribute("toolhygiene.attempts", outcome.attempts)
                if outcome.failure is not None:
                    fingerprint = _attribute(outcome.failure.fingerprint)
                    span.set_attribute("toolhygiene.fingerprint", fingerprint)
                if _config.settings.trace_content:
                    span.set_attribute("gen_ai.tool.call.result", _attribute(outcome.content))
        finally:
            otel_context.detach(token)
            span.end()
        attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": _shown(call)[1]}
        if error is not None:
            attributes["error.type"] = error
        self._duration.record(call.seconds, attributes)

    # -- events on the current span ---------------------------------------------------------

    def on_failure(self, event: _observe.Event) -> None:
        exc = event.exc
        if exc is None:
            return
        attributes = {"exception.type": _observe.code_name(type_name(exc))}
        if _config.settings.trace_content:
            from toolhygiene._log import traceback_text

            message = event.failure.message if event.failure else ""
            attributes["exception.message"] = _attribute(message)
            # The event's traceback text, redacted whatever ``redact_logs`` says.
            shown = event.fields.get("exception")
            attributes["exception.stacktrace"] = shown or traceback_text(exc, redacting=True)
        trace.get_current_span().add_event("gen_ai.execute_tool.exception", attributes)

    def on_retry(self, event: _observe.Event) -> None:
        _add("toolhygiene.tool.retry", event)

    def on_close(self, event: _observe.Event) -> None:
        _add("toolhygiene.tool.closed", event)

    def on_clear(self, event: _observe.Event) -> None:
        _add("toolhygiene.transcript.cleared", event)

    def on_tail(self, event: _observe.Event) -> None:
        if event.name == "error.recovered":
            _add("toolhygiene.error.recovered", event)


def _add(name: str, event: _observe.Event) -> None:
    attributes: dict[str, Any] = {"gen_ai.conversation.id": event.session_id}
    if event.tool is not None:
        attributes["gen_ai.tool.name"] = _name(event.tool)
    if event.call_id is not None:  # a recovery's: the call that failed, not the span's
        attributes["toolhygiene.call_id"] = _observe.shown_id(event.call_id)
    for key, field in event.fields.items():
        if key in ("line", "tools", "exception"):
            continue  # the model's words, tool maps and tracebacks stay in the logs
        # As every output writes them: bounded and plain, ids and names from code redacted.
        value = _observe.written(key, field)
        if isinstance(value, (str, bool, int, float)):
            attributes[f"toolhygiene.{key}"] = value
    trace.get_current_span().add_event(name, attributes)


def _error_type(outcome: Any) -> str | None:
    if outcome is None:  # a BaseException is going through the call
        exc = sys.exc_info()[1]
        return short_name(exc) if exc is not None else "cancelled"
    if outcome.failure is None:
        return None
    if outcome.failure.status == "closed":
        return "unavailable"
    return str(outcome.failure.category.value)


def _json_default(value: Any) -> Any:
    # The hooks' read-only copy: its mappings are proxies (its lists, tuples, go as arrays).
    return dict(value) if isinstance(value, Mapping) else repr(value)


@functools.lru_cache(maxsize=256)
def _description(description: str) -> str:
    """A tool's description as a span attribute: redacted, one line, capped (the same
    few descriptions come back on every call)."""
    return sanitize(description, _CONTENT_CAP)


def _arguments(arguments: Any) -> str:
    if isinstance(arguments, bytes):
        arguments = arguments.decode("utf-8", "replace")
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments, default=_json_default, sort_keys=True)
    return sanitize(arguments, _CONTENT_CAP)


_observe.set_telemetry(Telemetry())
