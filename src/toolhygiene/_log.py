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

The traceback always reaches the log, bounded and redacted unless
``th.configure(redact_logs=False)``:

- ``logging``: the record's ``exc_text`` is the traceback text, which every ``Formatter``
  prints after the message, and ``record.toolhygiene`` holds every field, the traceback as
  ``exception``. Its ``exc_info`` is the exception itself only with ``redact_logs=False``:
  handlers that format ``exc_info`` themselves (structlog's ``ProcessorFormatter``,
  OpenTelemetry's ``LoggingHandler``, JSON formatters) would print it past the redaction;
- structlog: the ``exception`` field, rendered as structlog's ``format_exc_info`` renders
  it (console renderers print it as a traceback, JSON renderers as a string). With
  ``redact_logs=False`` the event also carries ``exc_info``, the exception itself, for
  the chain's own exception formatters; not otherwise, since they would render it (and,
  some, its local variables) past the redaction.

Every string field of every event is valid UTF-8 and capped, whatever a tool or the
model put in it, and the traceback of a failure costs the same for a 10 MB message or a
100,000-deep cause chain as for an ordinary one: a few exceptions of the chain, a few
frames of each, a few kilobytes of each message.
"""

from __future__ import annotations

import functools
import logging
import sys
import traceback
from types import TracebackType
from typing import Any

from toolhygiene import _config, _observe
from toolhygiene._reading import (
    attr,
    depth,
    links,
    raw_message,
    said,
    short_name,
    traceback_of,
    type_name,
)
from toolhygiene._redact import redact
from toolhygiene._text import bounded_repr, plain, truncate, valid

__all__ = [
    "CHAIN_COUNTED",
    "FIELD_CAP",
    "TRACEBACK_EXCEPTIONS",
    "TRACEBACK_FRAMES",
    "TRACEBACK_MEMBERS",
    "TRACEBACK_MESSAGE",
    "TRACEBACK_NOTES",
    "TRACEBACK_SHOWN",
    "LogOutput",
    "traceback_text",
]

stdlib_logger = logging.getLogger("toolhygiene")
_METHOD = {logging.INFO: "info", logging.WARNING: "warning"}


FIELD_CAP = _observe.FIELD_CAP
"""Characters of one string field of a log event, at most (the traceback included)."""
TRACEBACK_EXCEPTIONS = 8
"""Exceptions of a chain (causes, contexts) in a logged traceback, at most."""
TRACEBACK_MEMBERS = 15
"""Members of each exception group in a logged traceback (Python's own traceback shows as
many); the rest are told as ``and N more members not shown``."""
TRACEBACK_SHOWN = 64
"""Exceptions in a logged traceback in all (groups, their members, causes), at most."""
TRACEBACK_FRAMES = (5, 25)
"""Frames of each exception kept: the outermost and the innermost; the middle is cut."""
CHAIN_COUNTED = 1_001
"""Links of a cut chain counted to tell its depth in the log (a deeper one is "more than")."""
TRACEBACK_MESSAGE = 4096
"""Characters of each exception's message in a logged traceback (cut after redaction)."""
TRACEBACK_MESSAGE_READ = 4 * TRACEBACK_MESSAGE
"""Characters of each message (and note) read raw, redacted, and only then cut to
``TRACEBACK_MESSAGE``: a secret across the cut is redacted whole, never halved first so
that its start slips past the detectors (the order of ``sanitize``: cap the raw text,
redact, then truncate)."""

_WALK = 100_000  # frames walked in one traceback at most


def _frames(tb: TracebackType | None) -> list[str]:
    entries: list[TracebackType] = []
    while tb is not None and len(entries) < _WALK:
        entries.append(tb)
        tb = tb.tb_next
    head, tail = TRACEBACK_FRAMES
    cut = len(entries) > head + tail
    parts = [entries[:head], entries[-tail:]] if cut else [entries]
    lines: list[str] = []
    for at, part in enumerate(parts):
        if at:
            lines.append(f"  ... {len(entries) - head - tail} frames not shown ...\n")
        summary = traceback.StackSummary.extract(
            ((t.tb_frame, t.tb_lineno) for t in part), lookup_lines=True
        )
        lines.extend(map(_framed, summary.format()))
    return lines


def _framed(frame: str) -> str:
    """A frame as Python writes it (``  File "…", line N, in name`` and its source, every
    line indented), with a line that a file or function name started (a line break in
    it: ``\n``, a bare ``\r``, ``\u2028``...) indented under them."""
    lines = frame.splitlines()
    if all(line.startswith(" ") for line in lines) and frame.count("\n") == len(lines):
        return frame
    return "".join(("" if line.startswith(" ") else "    ") + line + "\n" for line in lines)


TRACEBACK_NOTES = 16
"""Notes (``add_note``) of each exception kept in a logged traceback, each cut like its
message."""


def _message(raw: str, redacting: bool) -> str:
    """A message or note read raw (at most ``TRACEBACK_MESSAGE_READ`` characters) as the
    log shows it: redacted when the log is, then cut to ``TRACEBACK_MESSAGE``. Where the
    raw read cut the text, its last word may be half of one (half a secret, that no
    detector knows whole): it goes before redaction. The cut never halves a placeholder."""
    if len(raw) >= TRACEBACK_MESSAGE_READ:
        raw = raw[: max(raw.rfind(" "), raw.rfind("\n"), TRACEBACK_MESSAGE)]
    text = redact(raw) if redacting else raw
    if len(text) <= TRACEBACK_MESSAGE:
        return text
    text = text[:TRACEBACK_MESSAGE]
    opened = text.rfind("[")
    tail = text[opened:]
    if (
        opened >= 0
        and "]" not in tail
        and (tail.startswith("[redacted:") or "[redacted:".startswith(tail))
    ):
        text = text[:opened]  # a placeholder's start, or the whole of one the cut halved
    return text


def _notes(exc: BaseException, redacting: bool) -> list[str]:
    """The exception's notes (PEP 678), as Python prints them after its message."""
    notes = attr(exc, "__notes__")
    if not isinstance(notes, (list, tuple)):
        return []
    lines = [
        (
            _message(plain(note, TRACEBACK_MESSAGE_READ), redacting)
            if isinstance(note, str)
            else bounded_repr(note, 200)
        )
        + "\n"
        for note in notes[:TRACEBACK_NOTES]
    ]
    if len(notes) > TRACEBACK_NOTES:
        lines.append(f"({len(notes) - TRACEBACK_NOTES} more notes not shown)\n")
    return lines


def _one(exc: BaseException, redacting: bool) -> str:
    lines = ["Traceback (most recent call last):\n", *_frames(traceback_of(exc))]
    message = raw_message(exc, TRACEBACK_MESSAGE_READ)
    if message is None:
        message = "(its message could not be read)"
    else:
        message = _message(valid(message), redacting)
    lines.append(_held(f"{type_name(exc)}: {message}" if message else type_name(exc)) + "\n")
    lines.extend(_held(note.removesuffix("\n")) + "\n" for note in _notes(exc, redacting))
    return "".join(lines)


def _held(text: str) -> str:
    """``text`` (an exception's ``module.Name: message`` line, a note) with every line
    after its first indented, whatever ends them (``\n``, a bare ``\r``, ``\u2028``...):
    an upstream's text echoed in a message, or a name taken from code, cannot start a line
    of a plain-text log that reads like an event of its own."""
    if text.isprintable():
        return text
    return "\n    ".join(text.splitlines())


def _indented(text: str, level: int) -> str:
    if not level:
        return text
    bar = "  | " * level
    return "".join(
        (bar if line.strip() else bar.rstrip()) + line for line in text.splitlines(keepends=True)
    )


def traceback_text(exc: BaseException, *, redacting: bool | None = None) -> str:
    """The traceback of ``exc`` and of what it came from, outermost first, bounded (see
    the module constants), redacted when ``redacting`` says, by default unless
    ``configure(redact_logs=False)`` (the spans always redact: ``redacting=True``).

    Each exception's notes follow its message, as Python prints them; a cause (or the
    exception being handled) follows under ``which came from:``; the members of an
    exception group follow it, each under ``member I of N of the group above:`` and
    indented with ``|`` one level per group, as Python's own traceback draws them."""
    redacts = _config.settings.redact_logs if redacting is None else redacting
    try:
        found = links(exc, CHAIN_COUNTED, TRACEBACK_MEMBERS)
        parts: list[str] = []
        chained = shown = left_out = 0
        cut: list[tuple[BaseException, tuple[int, int] | None, int]] = []
        for at, (each, member, level) in enumerate(found):
            if member is not None and member[0] == 0:
                if cut:
                    left_out += member[1]
                else:
                    told = f"\nand {member[1]:,} more members not shown\n"
                    parts.append(_indented(told, level))
                continue
            if member is None and at:
                chained += 1
            if cut or shown >= TRACEBACK_SHOWN or chained >= TRACEBACK_EXCEPTIONS:
                cut.append((each, member, level))
                continue
            shown += 1
            if member is not None:
                told = f"\nmember {member[0]} of {member[1]} of the group above:\n\n"
                parts.append(_indented(told, level))
            elif at:
                parts.append(_indented("\nwhich came from:\n\n", level))
            parts.append(_indented(_one(each, redacts), level))
    except Exception as broken:  # a log line must never cost the call its answer
        return f"(the traceback of {short_name(exc)} could not be read: {said(broken)})"
    text = "".join(parts)
    if cut:
        text += _cut_note(exc, cut, left_out, len(found) >= CHAIN_COUNTED)
    text = valid(text)
    if redacts:
        try:
            text = redact(text)
        except Exception as broken:  # never write what could not be redacted
            return f"(the traceback of {short_name(exc)} could not be redacted: {said(broken)})"
    return truncate(text, FIELD_CAP)


def _cut_note(
    exc: BaseException,
    cut: list[tuple[BaseException, tuple[int, int] | None, int]],
    left_out: int,
    more: bool,
) -> str:
    """What a cut traceback left out, counted: the chain's depth when only its causes were
    cut, else the causes and the group members not shown, each counted apart."""
    members = left_out + sum(1 for _, member, _ in cut if member is not None)
    if not members:
        deep = depth(exc, CHAIN_COUNTED)
        told = f"more than {CHAIN_COUNTED - 1:,}" if deep >= CHAIN_COUNTED else f"{deep:,}"
        return (
            f"\n(the chain was cut: it is {told} exceptions deep; only its first "
            f"{TRACEBACK_EXCEPTIONS} are shown)\n"
        )
    causes = len(cut) + left_out - members
    at_least = "at least " if more else ""
    return (
        f"\n(the traceback was cut: {at_least}{causes + members:,} more exceptions not shown, "
        f"{causes:,} causes or contexts and {members:,} group members; groups show their "
        f"first {TRACEBACK_MEMBERS} members, chains their first {TRACEBACK_EXCEPTIONS})\n"
    )


def _record(event: _observe.Event) -> dict[str, Any]:
    """The event's flat dict, its traceback text made if no output made it yet."""
    event.settle()
    record = event.record()
    exc = event.exc
    # ``fields["exception"]`` (hooks, ``testing.capture()``) is always redacted; the logs'
    # own text is raw with ``configure(redact_logs=False)``.
    if exc is not None and ("exception" not in record or not _config.settings.redact_logs):
        record["exception"] = traceback_text(exc)
    return record


def _stdlib(target: logging.Logger | logging.LoggerAdapter[Any], event: _observe.Event) -> None:
    """The event as one record of ``target``: a ``logging.Logger``, or a
    ``logging.LoggerAdapter`` (its logger's record, with the adapter's own ``extra``, as
    ``process`` gives it, beside ``toolhygiene``)."""
    level = event.level
    if not target.isEnabledFor(level):
        return  # the common case without configuration: nothing is formatted
    extra: dict[str, Any] = {}
    adapters: list[logging.LoggerAdapter[Any]] = []
    while isinstance(target, logging.LoggerAdapter):
        adapters.append(target)
        target = target.logger
    for adapter in reversed(adapters):  # the outermost adapter's extra wins
        extra.update(adapter.process("", {})[1].get("extra") or {})
    record = _record(event)
    text = " ".join(
        [event.name, *(f"{k}={v!r}" for k, v in record.items() if k not in _NOT_IN_TEXT)]
    )
    exc = event.exc
    # The exception itself only when the logs are not redacted: a handler that formats
    # exc_info itself would print it raw. The redacted text is exc_text either way.
    raw = exc is not None and not _config.settings.redact_logs
    exc_info = (type(exc), exc, traceback_of(exc)) if raw and exc is not None else None
    path, line, function, _ = target.findCaller()
    made = target.makeRecord(
        target.name,
        level,
        path,
        line,
        "%s",
        (text,),
        exc_info,
        function,
        extra={**extra, "toolhygiene": record},
    )
    if exc is not None:
        # The text every Formatter prints after the message: bounded, redacted unless
        # configured not.
        made.exc_text = record["exception"]
    target.handle(made)


_NOT_IN_TEXT = frozenset({"event", "exception"})


def _structured(target: Any, event: _observe.Event) -> None:
    # The exception field rendered, as structlog's format_exc_info renders it, so that
    # every chain shows it (a renderer with no exception processor too).
    record = _record(event)
    del record["event"]
    exc = event.exc
    if exc is not None and not _config.settings.redact_logs:
        # The exception itself, for the chain's own formatters (format_exc_info,
        # dict_tracebacks, rich): they render it raw, locals and all, so only when the
        # logs are not to be redacted.
        record["exc_info"] = exc
    getattr(target, _METHOD.get(event.level, "info"))(event.name, **record)


def _target() -> Any:
    """Where an event goes now: ``None`` (``logs=False``), a ``logging.Logger``, or a
    structlog-style logger."""
    logs = _config.settings.logs
    if logs is False:
        return None
    if logs is True:
        # An application that configured structlog has imported it: one that has not
        # imported it gets the standard library's logging, and toolhygiene never imports it.
        structlog = sys.modules.get("structlog")
        if structlog is not None and structlog.is_configured():
            return structlog.get_logger("toolhygiene")
        return stdlib_logger
    return logs


def send(event: _observe.Event) -> None:
    """Log ``event`` where the settings say, at the time of the event."""
    target = _target()
    if target is None:
        return
    if isinstance(target, (logging.Logger, logging.LoggerAdapter)):
        _stdlib(target, event)
    else:
        _structured(target, event)


class LogOutput(_observe.Hooks):
    """The hooks that write the log (every event, one line each)."""

    def on_failure(self, event: _observe.Event) -> None:
        send(event)

    on_retry = on_close = on_clear = on_tail = on_end = on_store = on_hook_failure = on_failure

    def _wants(self, level: int) -> bool:
        """Whether an event at ``level`` would be written (``_observe.listening``)."""
        target = _target()
        if isinstance(target, (logging.Logger, logging.LoggerAdapter)):
            return target.isEnabledFor(level)
        return target is not None


_observe.set_log(LogOutput(), functools.partial(traceback_text, redacting=True))
