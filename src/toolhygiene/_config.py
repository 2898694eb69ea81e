"""Process-wide settings: the line and result caps, Retry-After bounds, redaction, logs,
OpenTelemetry, test mode.

One mutable object, read at call time, so ``configure()`` and the helpers in
``toolhygiene.testing`` take effect for sessions that already exist.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from toolhygiene import _checks
from toolhygiene._exceptions import UsageError

__all__ = [
    "MIN_LINE_CAP",
    "MIN_RESULT_CAP",
    "RESULT_CAP",
    "Settings",
    "check_result_cap",
    "configure",
    "line_cap",
    "settings",
    "wait_within",
]

RESULT_CAP = 20_000
"""Default characters of one successful result in the context (about 5,000 tokens)."""

MIN_RESULT_CAP = 1_000

MIN_LINE_CAP = 160
"""The smallest line cap: room for a 64-character tool name and every part of a line that
must stay (``_words`` fits a line to any cap from here up)."""


@dataclass
class Settings:
    """What every session reads at call time.

    Attributes:
        line_cap: most characters in one line the model sees.
        retry_after_ceiling: a Retry-After header above this many seconds is treated as
            absurd and ignored; a wait a tool or another agent states itself
            (``ToolError(retry_after=)``, ``retryAfterSeconds``) is capped to it.
        redact_logs: apply ``redact()`` to the strings toolhygiene writes to its logs.
        redact_emails: e-mail addresses in failures and logs are redacted (what the model
            itself sent and successful results keep them either way).
        result_cap: most characters of a successful result the model sees, marker
            included (a tool's or a session's own cap wins).
        instant_retries: local retries do not sleep, the budget counts their waits as
            passed (set by ``testing.instant_retries``).
        logs: where the log events go: ``True`` (structlog when the application
            configured it, else ``logging``), ``False`` (nowhere), a ``logging.Logger``,
            or a structlog-style logger.
        opentelemetry: spans and the duration metric, when ``opentelemetry-api`` is
            installed and the application set a provider.
        trace_content: spans also carry the arguments, the result and the exception's
            message (redacted); off by default, since they may be sensitive.
    """

    line_cap: int = 300
    retry_after_ceiling: float = 3600.0
    redact_logs: bool = True
    redact_emails: bool = True
    result_cap: int = RESULT_CAP
    instant_retries: bool = False
    logs: Any = True
    opentelemetry: bool = True
    trace_content: bool = False

    def __enter__(self) -> Settings:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Leaving ``with th.configure(...):`` puts these settings (the previous ones)
        back."""
        configure(self)


settings = Settings()


def check_result_cap(cap: int | None) -> int | None:
    """``cap`` if it is a usable result cap (``None`` stays ``None``).

    Raises:
        UsageError: not a whole number of at least 1,000 characters (the marker alone
            needs room).
    """
    return None if cap is None else _checks.whole("result_cap", cap, MIN_RESULT_CAP)


def configure(
    restore: Settings | None = None,
    /,
    *,
    line_cap: int | None = None,
    retry_after_ceiling: float | None = None,
    redact_logs: bool | None = None,
    redact_emails: bool | None = None,
    result_cap: int | None = None,
    logs: Any = None,
    opentelemetry: bool | None = None,
    trace_content: bool | None = None,
) -> Settings:
    """Change process-wide settings; return the previous ones (to restore later).

    ``th.configure(previous)`` with a ``Settings`` that ``configure`` returned puts every
    setting back as it was (keywords given with it apply on top); the returned object is
    also a context manager that does so on leaving: ``with th.configure(logs=False): ...``.

    Raises:
        UsageError: a value out of range (a line cap under 160 characters, a ceiling
            that is not a positive finite number, a result cap under 1,000 characters,
            ``logs`` that is none of a bool, a ``logging.Logger`` or an object with
            ``info`` and ``warning`` methods).
    """
    if restore is not None and not isinstance(restore, Settings):
        raise UsageError(
            f"configure takes the Settings an earlier configure() returned, got {restore!r}"
        )
    previous = dataclasses.replace(settings)
    new = dataclasses.replace(restore if restore is not None else settings)
    if line_cap is not None:
        new.line_cap = line_cap
    if retry_after_ceiling is not None:
        new.retry_after_ceiling = retry_after_ceiling
    if redact_logs is not None:
        new.redact_logs = redact_logs
    if redact_emails is not None:
        new.redact_emails = redact_emails
    if result_cap is not None:
        new.result_cap = result_cap
    if logs is not None:
        new.logs = logs
    if opentelemetry is not None:
        new.opentelemetry = opentelemetry
    if trace_content is not None:
        new.trace_content = trace_content
    _check(new)  # all or nothing: a refused value changes no setting
    for each in dataclasses.fields(Settings):
        setattr(settings, each.name, getattr(new, each.name))
    return previous


def _check(new: Settings) -> None:
    new.line_cap = _checks.whole("line_cap", new.line_cap, MIN_LINE_CAP)
    ceiling = new.retry_after_ceiling
    if not (
        isinstance(ceiling, (int, float))
        and not isinstance(ceiling, bool)
        and math.isfinite(ceiling)
        and ceiling > 0
    ):
        raise UsageError(f"retry_after_ceiling must be a positive number, got {ceiling}")
    new.result_cap = check_result_cap(new.result_cap) or RESULT_CAP
    if not (isinstance(new.logs, bool) or _is_logger(new.logs)):
        raise UsageError(
            "logs must be True, False, a logging.Logger or a structlog-style logger "
            f"(with info and warning methods), got {new.logs!r}"
        )
    for name in (
        "redact_logs",
        "redact_emails",
        "instant_retries",
        "opentelemetry",
        "trace_content",
    ):
        _checks.flag(name, getattr(new, name))


def _is_logger(value: Any) -> bool:
    """A logger object: not a module (``logging`` itself has ``info`` and ``warning``
    functions, which write to the root logger, not to one of the application's choice),
    not a class (its methods want an instance), with callable ``info`` and ``warning``."""
    if isinstance(value, (ModuleType, type)):
        return False
    return all(callable(getattr(value, m, None)) for m in ("info", "warning"))


def line_cap(cap: int | None = None) -> int:
    """The line cap in force: ``cap`` (a Session's own) when given, else the configured
    one (300 unless configured). Every reader of the line cap reads it here."""
    return cap or settings.line_cap


def wait_within(seconds: float | None) -> float | None:
    """A wait a tool or another agent stated, as kept: ``None`` when absent, negative or
    not finite; at most ``settings.retry_after_ceiling`` (3600 s unless configured), so
    that no line says an absurd number and no retry waits for ever."""
    if seconds is None or not (math.isfinite(seconds) and seconds >= 0):
        return None
    return float(min(seconds, settings.retry_after_ceiling))
