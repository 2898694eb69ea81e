"""Process-wide settings: the line and result caps, Retry-After bounds, redaction, logs,
OpenTelemetry, test mode.

One mutable object, read at call time, so ``configure()`` and the helpers in
``toolhygiene.testing`` take effect for sessions that already exist.

Every ``configure()`` call is one layer of changes over the defaults, and the settings in
force are the defaults with every layer applied in the order the calls were made. Taking
a call back (leaving its ``with`` block, or ``configure(previous)`` with what it returned)
removes its layer and only it: blocks that overlap (threads, asyncio tasks) or nest in any
order leave the settings as the calls still in force say, never as a stale copy of the
past. A layer whose returned object is gone can never be taken back: it is folded into
the one below, so plain calls in a loop keep the list short.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import weakref
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from toolhygiene import _checks
from toolhygiene._exceptions import UsageError

__all__ = [
    "LEAST_ATTEMPT",
    "MAX_LINE_CAP",
    "MAX_RESULT_CAP",
    "MIN_LINE_CAP",
    "MIN_RESULT_CAP",
    "RESULT_CAP",
    "Settings",
    "change",
    "check_result_cap",
    "configure",
    "line_cap",
    "settings",
    "wait_within",
]

RESULT_CAP = 20_000
"""Default characters of one successful result in the context (about 5,000 tokens)."""

MIN_RESULT_CAP = 1_000
"""The smallest result cap: room for the cut marker and some of the result."""

MAX_RESULT_CAP = 256_000
"""The largest result cap: about 64,000 tokens, a third of a 200,000-token context window
in one result, which rides in every later request of the conversation. A bigger one (a
typo's ``10**9``, which would leave results uncapped) is refused, not clamped; a tool
with more to say pages it. The default, ``RESULT_CAP``, stays far below."""

LEAST_ATTEMPT = 0.25
"""Seconds an attempt needs at least, or the tool's own timeout if that is shorter: no
local retry starts with less of the retry budget left (it would be cut off before it
could do what a full attempt failed to do)."""

MIN_LINE_CAP = 160
"""The smallest line cap: room for a 64-character tool name and every part of a line that
must stay (``_words`` fits a line to any cap from here up)."""

MAX_LINE_CAP = 65_536
"""The largest line cap: a line the logs can write whole (each string field of an event
is at most 65,536 characters)."""


@dataclass
class Settings:
    """What every session reads at call time. Read-only once made: change the settings
    in force with ``configure``.

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

    def __setattr__(self, name: str, value: Any) -> None:
        """Only ``__init__`` sets a field: a ``Settings`` is what ``configure`` returned
        or will be given, so setting one of its attributes would change nothing.

        Raises:
            UsageError: always after construction; it says to call ``configure``, or
                which setting a misspelt name meant.
        """
        fields = self.__dataclass_fields__
        if name in fields and name not in self.__dict__:  # __init__
            object.__setattr__(self, name, value)
            return
        if name in fields:
            raise UsageError(
                f"a Settings is read-only: setting {name} on it changes nothing; call "
                f"th.configure({name}=...) instead"
            )
        import difflib

        close = difflib.get_close_matches(name, fields, n=1, cutoff=0.6)
        if close:
            raise UsageError(f"{name} is not a setting of th.configure: did you mean {close[0]}?")
        raise UsageError(f"{name} is not a setting of th.configure ({', '.join(fields)})")

    def __delattr__(self, name: str) -> None:
        raise UsageError(f"a Settings is read-only: {name} cannot be deleted")

    def __enter__(self) -> Settings:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Leaving ``with th.configure(...):`` takes back that call's changes (and only
        them: what other calls changed meanwhile stays)."""
        layer = self.__dict__.get("_layer")
        if layer is not None:
            with _lock:
                _take_back(layer)
                _apply()


settings = Settings()
"""The settings in force: one object, changed in place (every reader holds it)."""

_DEFAULTS = dataclasses.asdict(Settings())
_FIELDS = tuple(_DEFAULTS)
_UNSET: Any = object()
_lock = threading.Lock()


class _Layer:
    """The changes of one ``configure()`` call, while they can still be taken back."""

    __slots__ = ("changes", "owner")

    def __init__(self, changes: dict[str, Any], owner: Settings | None) -> None:
        self.changes = changes
        # The object the call returned: once it is gone nobody can take the call back.
        self.owner = weakref.ref(owner) if owner is not None else None

    def final(self) -> bool:
        return self.owner is None or self.owner() is None


_floor: dict[str, Any] = {}  # the layers that can no longer be taken back, folded
_layers: list[_Layer] = []


def _take_back(layer: _Layer) -> None:
    if layer in _layers:
        _layers.remove(layer)


def _fold() -> None:
    """Fold final layers into the floor (at the bottom) or into a final layer below."""
    kept: list[_Layer] = []
    for layer in _layers:
        if layer.final():
            if not kept:
                _floor.update(layer.changes)
                continue
            if kept[-1].final():
                kept[-1].changes.update(layer.changes)
                continue
        kept.append(layer)
    _layers[:] = kept


def _in_force() -> dict[str, Any]:
    values = {**_DEFAULTS, **_floor}
    for layer in _layers:
        values.update(layer.changes)
    return values


def _apply() -> None:
    """Make ``settings`` what the defaults and the layers say."""
    _fold()
    for name, value in _in_force().items():
        object.__setattr__(settings, name, value)


def check_result_cap(cap: int | None) -> int | None:
    """``cap`` if it is a usable result cap (``None`` stays ``None``).

    Raises:
        UsageError: not a whole number from 1,000 characters (the marker alone needs
            room) to 256,000.
    """
    if cap is None:
        return None
    return _checks.whole("result_cap", cap, MIN_RESULT_CAP, MAX_RESULT_CAP)


def configure(
    restore: Settings | None = None,
    /,
    *,
    line_cap: int = _UNSET,
    retry_after_ceiling: float = _UNSET,
    redact_logs: bool = _UNSET,
    redact_emails: bool = _UNSET,
    result_cap: int = _UNSET,
    logs: Any = _UNSET,
    opentelemetry: bool = _UNSET,
    trace_content: bool = _UNSET,
) -> Settings:
    """Change process-wide settings; return the previous ones (to take the change back).

    Each call is one layer of changes (the keywords given) over the defaults. Leaving
    ``with th.configure(logs=False): ...``, or ``th.configure(previous)`` with what a call
    returned, takes back that call's changes and only them, whatever other calls (other
    threads, other tasks) changed meanwhile; keywords given with ``previous`` apply on
    top. ``th.configure()`` changes nothing and returns the settings in force;
    ``th.configure(snapshot)`` with that object (or a ``th.Settings`` you made) sets
    every setting to its values.

    Raises:
        UsageError: a value out of range or of the wrong type (a line cap outside
            160-65,536 characters, a ceiling that is not a positive finite number, a result cap
            outside 1,000-256,000 characters, ``logs`` that is none of a bool, a
            ``logging.Logger`` or an object with ``info`` and ``warning`` methods, a
            switch that is not a bool, ``None`` for any setting).
    """
    given = {
        "line_cap": line_cap,
        "retry_after_ceiling": retry_after_ceiling,
        "redact_logs": redact_logs,
        "redact_emails": redact_emails,
        "result_cap": result_cap,
        "logs": logs,
        "opentelemetry": opentelemetry,
        "trace_content": trace_content,
    }
    return change(restore, {k: v for k, v in given.items() if v is not _UNSET})


def change(restore: Settings | None, changes: dict[str, Any]) -> Settings:
    """``configure``'s work: take back ``restore``'s call (or set every setting to
    ``restore``'s values), then apply ``changes`` as one new layer; all or nothing."""
    if restore is not None and not isinstance(restore, Settings):
        raise UsageError(
            f"configure takes the Settings an earlier configure() returned, got {restore!r}"
        )
    for name, value in changes.items():
        if value is None:
            raise UsageError(
                f"configure({name}=None) is not a setting: leave {name} out to keep it as it is"
            )
    with _lock:
        previous = dataclasses.replace(settings)
        layers = list(_layers)
        undone = restore.__dict__.get("_layer") if restore is not None else None
        if undone is not None and undone.changes:
            if undone in layers:
                layers.remove(undone)
        elif restore is not None:  # a snapshot: every setting to its values
            changes = {**{n: getattr(restore, n) for n in _FIELDS}, **changes}
        values = {**_DEFAULTS, **_floor}
        for layer in layers:
            values.update(layer.changes)
        new = Settings(**{**values, **changes})
        _check(new)  # all or nothing: a refused value changes no setting
        _layers[:] = layers
        if changes:
            layer = _Layer({n: getattr(new, n) for n in changes}, previous)
            previous.__dict__["_layer"] = layer
            _layers.append(layer)
        _apply()
    return previous


def _check(new: Settings) -> None:
    _checks.whole("line_cap", new.line_cap, MIN_LINE_CAP, MAX_LINE_CAP)
    ceiling = new.retry_after_ceiling
    if not (
        isinstance(ceiling, (int, float))
        and not isinstance(ceiling, bool)
        and math.isfinite(ceiling)
        and ceiling > 0
    ):
        raise UsageError(f"retry_after_ceiling must be a positive number, got {ceiling}")
    object.__setattr__(new, "result_cap", check_result_cap(new.result_cap) or RESULT_CAP)
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
