"""The log output: every event through structlog, or through ``logging`` when the
application configured nothing; never to stdout on toolhygiene's own decision.

Where an event goes is decided when it happens, not when a Session is made:

- ``th.configure(logs=False)``: nowhere;
- ``th.configure(logs=<a logging.Logger>)``: that standard-library logger;
- ``th.configure(logs=<any other object>)``: a structlog-style logger, called as
  ``obj.info(event, **fields)`` / ``obj.warning(...)``;
- ``logs=True`` (the default): when the application has called ``structlog.configure``,
  ``structlog.get_logger("toolhygiene")`` with that configuration; otherwise the
  standard-library logger ``toolhygiene``, so Python's own rules apply (without any
  configuration: nothing below WARNING, warnings to stderr).

The traceback is the ``exception`` field (structlog's own name for it: console renderers
print it as a traceback, JSON renderers as a string), redacted unless
``th.configure(redact_logs=False)``; for ``logging`` it follows the message on its own
lines, and the record carries every field in ``record.toolhygiene``.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

import structlog

from toolhygiene import _config, _observe
from toolhygiene.redact import redact

__all__ = ["LogOutput", "traceback_text"]

stdlib_logger = logging.getLogger("toolhygiene")
_structlog_logger = structlog.get_logger("toolhygiene")
_METHOD = {logging.INFO: "info", logging.WARNING: "warning"}


def traceback_text(exc: BaseException) -> str:
    """The whole traceback with causes and context, for humans reading logs."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return redact(text) if _config.settings.redact_logs else text


def _stdlib(target: logging.Logger, event: _observe.Event) -> None:
    level = event.level
    if not target.isEnabledFor(level):
        return  # the common case without configuration: nothing is formatted
    record = event.record()
    if event.exc is not None:
        record["exception"] = traceback_text(event.exc)
    text = " ".join(
        [event.name, *(f"{k}={v!r}" for k, v in record.items() if k not in ("event", "exception"))]
    )
    if "exception" in record:
        text = f"{text}\n{record['exception'].rstrip()}"
    target.log(level, "%s", text, extra={"toolhygiene": record})


def _structured(target: Any, event: _observe.Event) -> None:
    record = event.record()
    del record["event"]
    if event.exc is not None:
        record["exception"] = traceback_text(event.exc)
    getattr(target, _METHOD.get(event.level, "info"))(event.name, **record)


def send(event: _observe.Event) -> None:
    """Log ``event`` where the settings say, at the time of the event."""
    logs = _config.settings.logs
    if logs is False:
        return
    if logs is True:
        if structlog.is_configured():
            _structured(_structlog_logger, event)
        else:
            _stdlib(stdlib_logger, event)
    elif isinstance(logs, logging.Logger):
        _stdlib(logs, event)
    else:
        _structured(logs, event)


class LogOutput(_observe.Hooks):
    """The hooks that write the log (every event, one line each)."""

    def on_failure(self, event: _observe.Event) -> None:
        send(event)

    on_retry = on_close = on_clear = on_tail = on_end = on_failure


_observe.add_hooks(LogOutput())
